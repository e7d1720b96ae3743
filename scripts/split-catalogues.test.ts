import type { OutputChunk } from 'rolldown';
import { describe, expect, it } from 'vitest';
import { firstScreenChunks, messageIdsIn } from './split-catalogues';

const chunk = (fileName: string, fields: Partial<OutputChunk>): OutputChunk =>
  ({
    type: 'chunk',
    fileName,
    code: '',
    imports: [],
    isEntry: false,
    facadeModuleId: null,
    ...fields,
  }) as OutputChunk;

describe('splitting the catalogues', () => {
  it('finds the message ids the macros leave in built code, in any quotes', () => {
    const code = `i18n._({id:"aB3+x/"});t({id: 'Zz9Zz9', message: "x"});jsx(Trans,{id:\`Q1w2E3\`});i18n._({id:"a\\"b"})`;
    expect([...messageIdsIn(code)].sort()).toEqual(['Q1w2E3', 'Zz9Zz9', 'aB3+x/', 'a\\"b']);
    expect(messageIdsIn('const id = "Zz9Zz9"; ({ identity: "x" })').size).toBe(0);
  });

  it('takes the entry and the first pages with their static imports, never what they load lazily', () => {
    const chunks = [
      chunk('index.js', { isEntry: true, imports: ['react.js'], dynamicImports: ['home.js', 'profile.js'] }),
      chunk('react.js', {}),
      chunk('home.js', { facadeModuleId: '/app/web/app/pages/home-page.tsx', imports: ['feed.js'] }),
      chunk('feed.js', { imports: ['react.js'], dynamicImports: ['dialog.js'] }),
      chunk('dialog.js', {}),
      chunk('profile.js', { facadeModuleId: '/app/web/app/pages/profile-page.tsx' }),
    ];
    const first = firstScreenChunks(chunks, ['web/app/pages/home-page.tsx']).map((c) => c.fileName);
    expect(first.sort()).toEqual(['feed.js', 'home.js', 'index.js', 'react.js']);
    expect(() => firstScreenChunks(chunks, ['web/app/pages/gone-page.tsx'])).toThrow(/gone-page/);
  });
});
