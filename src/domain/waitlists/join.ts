/**
 * Joining a waitlist (spec operation 6): a party queues for one sold-out session of the waitlist's
 * experience. Checks, in order: the body's shape, the brand, the waitlist (NOT_FOUND unless the
 * brand's), the experience bookable, the session (it exists, has not started, lasts
 * `sessionDuration`), price tiers, the participant count within the experience's bounds, the answers
 * (as checkout checks them); then, in the transaction, that the session has no room for the party
 * (SESSION_AVAILABLE: book it instead) and that the purchaser's email has no live entry for it
 * (ALREADY_ON_WAITLIST to a secret key; a publishable key is answered as if it joined, see below).
 * A publishable key's client may wait for at most `publishableHolds.placesPerClient` places of a brand
 * at once (HOLD_LIMIT_REACHED): an offer holds places for its entry, so made-up entries would otherwise
 * hold every place that frees up, without paying (issue 34). Secret keys are not bounded.
 */
import { randomUUID } from 'node:crypto';
import type { WaitlistPerson } from '../shared/json-types.ts';
import { type BrandRow, type ExperienceRow } from '../catalog/store.ts';
import { type SessionRow } from '../availability/store.ts';
import { validateAnswers, type StoredAnswer, type ValidatedAnswers } from '../questions/answers.ts';
import { loadBrand } from '../catalog/brands.ts';
import type { CallerDeps } from '../shared/deps.ts';
import { DomainError, notFound } from '../shared/errors.ts';
import { expireDueHolds } from '../checkout/holds.ts';
import { checkWaitlistBudget, defaultPublishableHolds, holderOf } from '../checkout/hold-budget.ts';
import { requireHumanCheck } from '../checkout/human-check.ts';
import { checkParticipantCount } from '../checkout/pricing.ts';
import { customQuestionsByExperience, refuseAnswersWithoutFeature } from '../questions/questions.ts';
import { requireFeature, tierPrice } from '../catalog/features.ts';
import { assertNotCancelled, assertNotStarted, normalizeSessionTime, remainingPlaces } from '../availability/sessions.ts';
import { checkJoinShape, localStart, type JoinWaitlistInput } from './input.ts';
import { expireDueOffers, recordEntryEvent } from './offers.ts';
import { toEntryView, type WaitlistEntry } from './entry-view.ts';

export type { JoinWaitlistInput } from './input.ts';

async function waitlistExperience(
  deps: CallerDeps,
  brand: BrandRow,
  waitlistId: string,
): Promise<{ waitlistId: string; experience: ExperienceRow }> {
  const waitlist = await deps.db.waitlists.findWaitlistRow(waitlistId);
  if (!waitlist || waitlist.brandId !== brand.id) throw notFound('Waitlist', waitlistId);
  const experience = await deps.db.experiences.findExperienceRow(waitlist.experienceId);
  if (!experience) throw notFound('Waitlist', waitlistId);
  if (experience.isUnlisted)
    requireFeature(brand, 'unlistedExperience', `Experience ${experience.id} is unlisted: waiting for it`, 'waitlistId');
  if (experience.archivedAt) {
    throw new DomainError('EXPERIENCE_ARCHIVED', `Experience ${experience.id} of this waitlist is archived: it is no longer sold`, {
      field: 'waitlistId',
    });
  }
  if (!experience.isBookable) {
    throw new DomainError('EXPERIENCE_NOT_BOOKABLE', `Experience ${experience.id} of this waitlist is not bookable`, {
      field: 'waitlistId',
    });
  }
  return { waitlistId: waitlist.id, experience };
}

async function waitedSession(deps: CallerDeps, experience: ExperienceRow, input: JoinWaitlistInput): Promise<SessionRow> {
  // Refuses a local time the clocks skip (DST) with VALIDATION_FAILED, as checkout does.
  const startLocal = normalizeSessionTime(localStart(input), experience.timezoneId, 'sessionStartTime');
  const session = await deps.db.sessions.findSessionAt(experience.id, startLocal);
  if (!session) {
    throw new DomainError(
      'SESSION_NOT_FOUND',
      `Experience ${experience.id} has no session starting at ${startLocal} (${experience.timezoneId})`,
      {
        field: 'sessionStartTime',
        startDateTime: startLocal,
        timezone: experience.timezoneId,
      },
    );
  }
  assertNotCancelled(session, 'sessionStartTime');
  assertNotStarted(session, deps.now(), 'sessionStartTime');
  if (input.sessionDuration !== session.durationMinutes) {
    throw new DomainError(
      'SESSION_NOT_FOUND',
      `The session at ${startLocal} lasts ${session.durationMinutes} minutes, not ${input.sessionDuration}`,
      {
        field: 'sessionDuration',
        duration: session.durationMinutes,
      },
    );
  }
  return session;
}

async function checkParty(deps: CallerDeps, brand: BrandRow, experience: ExperienceRow, input: JoinWaitlistInput): Promise<void> {
  const tiers = await deps.db.experiences.priceTiersOfExperience(experience.id);
  input.participants.forEach((p, j) => tierPrice(brand, experience.id, tiers, p.priceTierName, `participants.${j}.priceTierName`));
  // The experience's bounds only: a waitlist is for parties the session cannot take now.
  const limits = { min: experience.minimumRequiredToBook, max: experience.maximumAllowedToBook, remaining: Number.POSITIVE_INFINITY };
  checkParticipantCount(input.participants.length, limits, 'participants');
}

async function checkAnswers(
  deps: CallerDeps,
  brand: BrandRow,
  experience: ExperienceRow,
  input: JoinWaitlistInput,
): Promise<ValidatedAnswers> {
  refuseAnswersWithoutFeature(brand, [
    { field: 'purchaser.customQuestionResponses', responses: input.purchaser.customQuestionResponses },
    ...input.participants.map((p, j) => ({ field: `participants.${j}.customQuestionResponses`, responses: p.customQuestionResponses })),
  ]);
  const [questions = []] = await customQuestionsByExperience(deps, [experience]);
  return validateAnswers({
    questions,
    purchaserResponses: input.purchaser.customQuestionResponses,
    purchaserField: 'purchaser.customQuestionResponses',
    participants: input.participants.map((p) => ({ responses: p.customQuestionResponses })),
    fieldPrefix: '',
  });
}

function person(p: JoinWaitlistInput['purchaser'], answers: StoredAnswer[], priceTierName?: string): WaitlistPerson {
  return {
    firstName: p.firstName,
    lastName: p.lastName,
    emailAddress: p.emailAddress ?? null,
    phoneNumber: p.phoneNumber ?? null,
    ...(priceTierName === undefined ? {} : { priceTierName }),
    answers,
  };
}

/** Adds the party to the end of the session's line; returns the entry (`waiting`). */
export async function joinWaitlist(deps: CallerDeps, input: JoinWaitlistInput): Promise<WaitlistEntry> {
  checkJoinShape(input);
  const brand = await loadBrand(deps, input.brandId);
  const { waitlistId, experience } = await waitlistExperience(deps, brand, input.waitlistId);
  const { id: sessionId, startLocal } = await waitedSession(deps, experience, input);
  await checkParty(deps, brand, experience, input);
  const answers = await checkAnswers(deps, brand, experience, input);
  const partySize = input.participants.length;
  const email = input.purchaser.emailAddress!.trim();
  const holds = deps.publishableHolds ?? defaultPublishableHolds;
  // Only a publishable key has a client (its address's HMAC); a secret key's entries are not bounded.
  const { client } = holderOf(deps.principal, holds, deps.clientAddress);
  const refuseBeyondBudget = async (store: Pick<typeof deps.db.waitlists, 'clientWaitlistPlaces'>, at: string) => {
    if (client) checkWaitlistBudget(holds.placesPerClient, partySize, await store.clientWaitlistPlaces(brand.id, client, at));
  };
  // A refusal spends no human-check token; the unit of work checks again, the authoritative check.
  await refuseBeyondBudget(deps.db.waitlists, deps.now().toISOString());
  // Last before the unit of work: a request refused for its input keeps its (single-use) token unspent.
  await requireHumanCheck(deps, brand, 'Joining a waitlist');

  return deps.db.transaction(async (tx) => {
    // First lock of the unit (as in checkout, the same lock): racing joins of one client count its entries in turn.
    if (client) await tx.checkout.lockHoldClient(brand.id, client);
    const now = deps.now();
    const at = now.toISOString();
    // Lapsed holds and offers free places first (to the entries already in line), as checkout does.
    await expireDueOffers(tx, now, deps.waitlistOfferTtlSeconds);
    await expireDueHolds(tx, now, deps.waitlistOfferTtlSeconds);
    const remaining = remainingPlaces((await tx.waitlists.findSessionById(sessionId))!);
    if (remaining >= partySize) {
      throw new DomainError(
        'SESSION_AVAILABLE',
        `The session still has ${remaining} places for this party of ${partySize}: book it instead`,
        { remaining },
      );
    }
    // The budget is checked before the e-mail's live entry is looked for (the insert below), and the
    // same way whether the e-mail waits or not: a client at its budget is refused for any address, so a
    // duplicate is no way around the budget and the refusal tells nothing of who waits. Under budget, a
    // duplicate is answered as a join (below) and records nothing, so it takes none of the budget: its
    // next join could tell, which is no more than leaving the answered entry tells (NOT_FOUND, never recorded).
    await refuseBeyondBudget(tx.waitlists, at);
    const id = randomUUID();
    const row = {
      id,
      waitlistId,
      sessionId,
      brandId: brand.id,
      status: 'waiting' as const,
      position: await tx.waitlists.nextPosition(sessionId),
      partySize,
      purchaser: person({ ...input.purchaser, emailAddress: email }, answers.purchaser),
      purchaserEmailKey: email.toLowerCase(),
      participants: input.participants.map((p, j) => person(p, answers.participants[j] ?? [], p.priceTierName)),
      createdAt: at,
      updatedAt: at,
    };
    if (await tx.waitlists.insertEntry({ ...row, holdClient: client })) return recordEntryEvent(tx, 'waitlist.entry_created', id, at);
    if (deps.principal.kind === 'publishable') {
      // Not an oracle: a publishable key is anyone's, so whether an e-mail address waits is not its to learn.
      // It is answered as a join is, with an entry that is not recorded: the purchaser's own entry stands,
      // and its id is not given to whoever typed the address.
      const entry = { ...row, offeredAt: null, offerExpiresAt: null, convertedBookingId: null, holdClient: client };
      return toEntryView({ entry, startLocal, timezone: experience.timezoneId });
    }
    throw new DomainError('ALREADY_ON_WAITLIST', `${email} is already waiting for this session`, { field: 'purchaser.emailAddress' });
  });
}
