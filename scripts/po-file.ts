import { readFileSync } from 'node:fs';

/** Reading a gettext catalogue (web/locales/*.po) in tests: its messages and their translations. */

export interface PoEntry {
  id: string;
  translation: string;
}

function unquote(line: string): string {
  return JSON.parse(line.slice(line.indexOf('"')));
}

/** msgid/msgstr pairs of a .po file (header left out); continuation lines joined. */
export function readPo(file: string): PoEntry[] {
  const entries: PoEntry[] = [];
  let field: 'id' | 'translation' | null = null;
  let current: PoEntry = { id: '', translation: '' };
  const flush = () => {
    if (current.id !== '') entries.push(current);
    current = { id: '', translation: '' };
  };
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('msgid ')) {
      flush();
      field = 'id';
      current.id = unquote(line);
    } else if (line.startsWith('msgstr ')) {
      field = 'translation';
      current.translation = unquote(line);
    } else if (line.startsWith('"') && field) {
      current[field] += unquote(line);
    } else if (line.trim() === '' || line.startsWith('#')) {
      field = line.trim() === '' ? null : field;
    }
  }
  flush();
  return entries;
}
