import babel, { defineRolldownBabelPreset } from '@rolldown/plugin-babel';

/**
 * Lingui's macros (`t`, `Trans`, `plural`, `msg`) become catalogue lookups at build time (ADR 036):
 * Babel runs only on the modules that import a macro; everything else goes straight to Oxc.
 */
export function linguiMacros() {
  return babel({
    presets: [
      defineRolldownBabelPreset({
        preset: { plugins: ['@lingui/babel-plugin-lingui-macro'] },
        rolldown: { filter: { code: /from ['"]@lingui\/(?:core|react)\/macro['"]/ } },
      }),
    ],
  });
}
