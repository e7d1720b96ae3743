import { type Config, ConfigError, loadConfig } from '#server/config.ts';

/**
 * The settings for a command run from a shell (`npm run admin`, `backup`, `restore`): null after
 * printing what is wrong with them, for the command to exit with its usage status.
 */
export function scriptConfig(): Config | null {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      return null;
    }
    throw error;
  }
}
