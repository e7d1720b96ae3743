import { describe, expect, it } from 'vitest';
import { classesInHtml, criticalCss } from './critical-css';
import { criticalPieces } from './critical-css-pieces';

/** A stylesheet shaped as Tailwind 4 builds ours: layers, escaped classes, variants, conditions. */
const STYLESHEET = [
  '/*! tailwindcss | MIT License */',
  '@layer theme,base,components,utilities;',
  '@layer theme{:root,:host{--color-red-500:#f00}}',
  '@layer base{*,:after,:before{box-sizing:border-box}[hidden]:where(:not([hidden=until-found])){display:none!important}}',
  '@layer utilities{',
  '.flex{display:flex}',
  '.hidden{display:none}',
  '.w-1\\/2{width:50%}',
  '.hover\\:bg-red-500:hover{background:var(--color-red-500)}',
  '.\\[\\&\\>svg\\]\\:size-4>svg{width:1rem}',
  '.space-y-2>:not(:last-child){margin-bottom:.5rem}',
  '.group-hover\\:underline:is(:where(.group):hover *){text-decoration:underline}',
  '.peer:checked~.peer-checked\\:font-bold{font-weight:700}',
  '.data-\\[state\\=open\\]\\:block[data-state=open]{display:block}',
  '.a[data-x="b.c"]{color:red}',
  '.x,.y{color:blue}',
  '@media (min-width:40rem){.sm\\:grid{display:grid}.\\32 xl\\:p-4{padding:1rem}}',
  '@supports (color:lab(0% 0 0)){.text-red-500{color:lab(50% 80 60)}}',
  '}',
  '@property --tw-ring{syntax:"*";inherits:false;initial-value:0 0 #0000}',
  '@keyframes spin{to{transform:rotate(1turn)}}',
].join('');

const part = (html: string) => criticalCss(criticalPieces(STYLESHEET))(classesInHtml(html));

describe('the part of the stylesheet a drawn page needs', () => {
  it('reads the classes of every class attribute, entities undone', () => {
    expect([...classesInHtml('<p class="a  b&#x27;"><i class="[&amp;&gt;svg]:size-4 b">x</i></p>')]).toEqual([
      'a',
      "b'",
      '[&>svg]:size-4',
      'b',
    ]);
    expect(classesInHtml('<p data-class="a">x</p><p>class="b"</p>').size).toBe(0);
  });

  it('keeps the rules with no class, and those whose classes the page uses, in their order and conditions', () => {
    const css = part(
      '<div class="flex sm:grid 2xl:p-4"><svg class="[&amp;&gt;svg]:size-4"></svg><p class="hover:bg-red-500 y text-red-500 group-hover:underline">x</p></div>',
    );
    expect(css).toBe(
      [
        '/*! tailwindcss | MIT License */',
        '@layer theme,base,components,utilities;',
        '@layer theme{:root,:host{--color-red-500:#f00}}',
        '@layer base{*,:after,:before{box-sizing:border-box}[hidden]:where(:not([hidden=until-found])){display:none!important}}',
        '@layer utilities{',
        '.flex{display:flex}',
        '.hover\\:bg-red-500:hover{background:var(--color-red-500)}',
        '.\\[\\&\\>svg\\]\\:size-4>svg{width:1rem}',
        '.group-hover\\:underline:is(:where(.group):hover *){text-decoration:underline}',
        '.x,.y{color:blue}',
        '@media (min-width:40rem){.sm\\:grid{display:grid}.\\32 xl\\:p-4{padding:1rem}}',
        '@supports (color:lab(0% 0 0)){.text-red-500{color:lab(50% 80 60)}}',
        '}',
        '@property --tw-ring{syntax:"*";inherits:false;initial-value:0 0 #0000}',
        '@keyframes spin{to{transform:rotate(1turn)}}',
      ].join(''),
    );
  });

  it('drops a rule one of whose classes the page lacks, and a condition left empty', () => {
    const css = part('<p class="peer-checked:font-bold a">x</p>');
    expect(css).not.toContain('.flex{');
    expect(css).not.toContain('@media');
    expect(css).not.toContain('@supports');
    // `.peer` is missing, so the sibling rule cannot apply; `.a[data-x="b.c"]` needs only `.a`.
    expect(css).not.toContain('font-weight');
    expect(css).toContain('.a[data-x="b.c"]{color:red}');
    expect(part('<p class="peer">x</p><p class="peer-checked:font-bold">y</p>')).toContain('font-weight:700');
  });
});
