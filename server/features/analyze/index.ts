/** Photo analysis: suggested title, category and description for a listing's photo. */
export { type AnalyzeRoutesOptions, analyzeRoutes } from './analyze-routes';
