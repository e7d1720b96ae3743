import { isCategoryAllowed } from '#common/categories.ts';
import { ERROR_CODES } from '#common/error-codes.ts';
import {
  LISTING_MESSAGES,
  WANT_ERROR_CODES,
  type WantInput,
  type WantUpdate,
} from '#common/schemas/listings.ts';
import type { Db } from '../../db/client';
import type { Page, PageRequest } from '../../db/paging';
import type { WantRow } from '../../db/schema/trading';
import { badRequest, notFound } from '../../errors';
import { type Actor, listingPolicy } from '../../policies/listing-policy';
import { assertAppropriateFields } from '../safety';
import {
  findWantQuestions,
  fulfilWant,
  reopenWant,
  takeWantQuestion,
  type WantQuestionRow,
  withdrawAnsweredQuestions,
} from './want-fulfilment';
import {
  deleteWantOfUser,
  findWantById,
  insertWant,
  listWantsByUser,
  updateWantOfUser,
} from './wants-repository';

type Member = NonNullable<Actor>;

/**
 * Someone else's want answers exactly like a missing one (404, not 403): a member probing ids must
 * not learn which wants exist or who keeps them.
 */
const wantNotFound = () => notFound('Want not found.');

/** The caller's own want, or 404 (also for someone else's: see wantNotFound). */
async function loadOwnWant(db: Db, actor: Member, id: number, action: 'update' | 'delete') {
  const want = await findWantById(db, id);
  if (!want || !listingPolicy[action](actor, want)) throw wantNotFound();
  return want;
}

/** Add a want to the member's list; wording that breaks the Terms is refused (spec section 5). */
export async function createWant(db: Db, actor: Member, input: WantInput): Promise<WantRow> {
  await assertAppropriateFields(db, actor.id, 'want', {
    title: input.title,
    description: input.description,
  });
  return insertWant(db, {
    userId: actor.id,
    title: input.title,
    description: input.description,
    category: input.category,
    isService: input.isService,
    maxValue: input.maxValue,
    isActive: input.isActive,
  });
}

/** One page of the member's own wants, active and inactive, newest first, with the total. */
export function listMyWants(db: Db, actor: Member, page: PageRequest): Promise<Page<WantRow>> {
  return listWantsByUser(db, actor.id, page);
}

/** Change the member's own want: any fields, and isActive (deactivate, reactivate). */
export async function updateWant(db: Db, actor: Member, id: number, patch: WantUpdate): Promise<WantRow> {
  const want = await loadOwnWant(db, actor, id, 'update');
  const category = patch.category ?? want.category;
  const isService = patch.isService ?? want.isService;
  if (
    (patch.category !== undefined || patch.isService !== undefined) &&
    !isCategoryAllowed(category, isService)
  ) {
    throw badRequest(`category: ${LISTING_MESSAGES.categoryNotInList}.`, ERROR_CODES.validation);
  }
  if (patch.title !== undefined || patch.description !== undefined) {
    const description = patch.description !== undefined ? patch.description : want.description;
    await assertAppropriateFields(db, actor.id, 'want', {
      title: patch.title ?? want.title,
      description,
    });
  }
  if (Object.values(patch).every((value) => value === undefined)) return want;
  // Made active again by hand: no longer fulfilled (as "I want more of these", issue 30).
  const reopened = patch.isActive === true && want.fulfilledAt !== null;
  const changes = reopened ? { ...patch, fulfilledAt: null, fulfilledByRequestId: null } : patch;
  const updated = await updateWantOfUser(db, id, actor.id, changes);
  if (!updated) throw wantNotFound();
  return updated;
}

/** Delete the member's own want. */
export async function deleteWant(db: Db, actor: Member, id: number): Promise<void> {
  await loadOwnWant(db, actor, id, 'delete');
  if (!(await deleteWantOfUser(db, id, actor.id))) throw wantNotFound();
}

/**
 * The member's open "Did this fill your want?" questions (issue 30), of one completed barter or all.
 */
export function listWantQuestions(
  db: Db,
  actor: Member,
  barterRequestId?: number,
): Promise<WantQuestionRow[]> {
  return findWantQuestions(db, actor.id, barterRequestId);
}

const questionNotFound = () =>
  notFound('There is no open question about this want for this barter.', WANT_ERROR_CODES.questionNotFound);

/**
 * Answer "Did this fill your want?": yes fulfils the want (it leaves the active list and stops
 * matching; every other question about it goes), no only takes the question away. The same answer
 * twice, someone else's want or a question never asked: 404 WANT_QUESTION_NOT_FOUND.
 */
export async function answerWantQuestion(
  db: Db,
  actor: Member,
  wantId: number,
  answer: { barterRequestId: number; filled: boolean },
): Promise<WantRow> {
  return db.transaction(async (tx) => {
    if (!(await takeWantQuestion(tx, actor.id, wantId, answer.barterRequestId))) throw questionNotFound();
    if (answer.filled) {
      const fulfilled = await fulfilWant(tx, actor.id, wantId, answer.barterRequestId, new Date());
      if (!fulfilled) throw questionNotFound();
      await withdrawAnsweredQuestions(tx, actor.id);
      return fulfilled;
    }
    const want = await findWantById(tx, wantId);
    if (!want) throw questionNotFound();
    await withdrawAnsweredQuestions(tx, actor.id);
    return want;
  });
}

/** Keep a want open ("I want more of these"): active again and matching, no longer fulfilled. */
export async function keepWantOpen(db: Db, actor: Member, wantId: number): Promise<WantRow> {
  await loadOwnWant(db, actor, wantId, 'update');
  const row = await reopenWant(db, actor.id, wantId);
  if (!row) throw wantNotFound();
  return row;
}
