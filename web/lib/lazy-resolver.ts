import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { ChunkLoadError } from './import-chunk';

/** A form resolver whose code loads on first use; `preload` starts loading it early. */
export type LazyResolver<Values extends FieldValues, Transformed> = Resolver<Values, unknown, Transformed> & {
  preload: () => void;
};

/**
 * A form's resolver whose schema loads when the form is first used, not with the page (ADR 046):
 * zod and the `common/` schemas cost a first screen that only shows the form about 40 ms of
 * evaluation on a fast machine, four times that on a phone. `load` imports a module that builds the
 * real resolver (`zodResolver(schema)`); it is asked for once, when `preload` is called (the form's
 * first focus) or at the first validation, whichever comes first. A failed load (the network gone
 * mid-way) is asked for again next time. Code that did not arrive, twice (ADR 052), holds the form
 * back with a `root` error: what was typed stays, and the page's notice offers Reload.
 */
export function lazyResolver<Values extends FieldValues, Transformed = Values>(
  load: () => Promise<Resolver<Values, unknown, Transformed>>,
): LazyResolver<Values, Transformed> {
  let loading: Promise<Resolver<Values, unknown, Transformed>> | undefined;
  const loaded = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  const resolver: Resolver<Values, unknown, Transformed> = async (values, context, options) => {
    let resolve: Resolver<Values, unknown, Transformed>;
    try {
      resolve = await loaded();
    } catch (error) {
      if (!(error instanceof ChunkLoadError)) throw error;
      return {
        values: {},
        errors: { root: { type: 'chunk', message: error.message } } as FieldErrors<Values>,
      };
    }
    return resolve(values, context, options);
  };
  return Object.assign(resolver, {
    preload: () => {
      loaded().catch(() => {
        // Asked for again at the first validation, which reports the failure.
      });
    },
  });
}
