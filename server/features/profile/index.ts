/** The signed-in member's own profile and profile photo. */
export { profilePhotoRoutes } from './profile-photo-routes';
export { profileRoutes } from './profile-routes';
