/** Places: search and reverse look-up (offline index or Nominatim), the town nearest a point. */
export {
  fairestNamedArea,
  nearestPlace,
  placeIndexStats,
  searchPlaces,
  townNear,
} from './offline-geocoder';
export { placesRoutes } from './places-routes';
