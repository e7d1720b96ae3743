/**
 * The most common passwords, refused at registration (ADR 016): the 49,233 of zxcvbn's "passwords"
 * dictionary (@zxcvbn-ts/language-common, MIT; ranked from leaked-password corpora, all lower case),
 * shipped inside the package and never fetched. Server only: the web bundle must not carry the list,
 * so the register form shows the server's answer under the password field instead.
 */

let listPromise: Promise<ReadonlySet<string>> | null = null;

/** The list as a set, loaded on first use (about 70 ms), so starting the server does not pay for it. */
function commonPasswords(): Promise<ReadonlySet<string>> {
  listPromise ??= import('@zxcvbn-ts/language-common')
    .then(({ dictionary }) => new Set(dictionary['passwords-common']))
    .catch((error: unknown) => {
      // Let the next registration try again rather than keep a failed load for the process's life.
      listPromise = null;
      throw error;
    });
  return listPromise;
}

/** How many passwords the list holds (for tests and docs). */
export async function commonPasswordCount(): Promise<number> {
  return (await commonPasswords()).size;
}

/** True when the password, in any letter case, is one of the most common passwords. */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await commonPasswords()).has(password.toLowerCase());
}
