// The example booking page: lists a brand's featured listings, shows an experience with its sessions and
// questions, checks out through Tessera's GraphQL API with a publishable key, pays with the sandbox
// processor (the payment intent's client secret is the credential, as with Stripe.js) and shows the
// confirmation. Plain browser JavaScript, no build step. Configure with the query string:
// ?gateway=http://127.0.0.1:4000&key=pk_test_lisbon_demo
const params = new URLSearchParams(window.location.search);
const gateway = (params.get('gateway') ?? 'http://127.0.0.1:4000').replace(/\/$/, '');
const key = params.get('key') ?? 'pk_test_lisbon_demo';

const $ = (id) => document.getElementById(id);
const state = { brand: null, experience: null, guests: 0 };

function show(status, isError = false) {
  $('status').textContent = status;
  $('status').className = isError ? 'error' : '';
  $('status').hidden = status === '';
}

async function call(path, body, headers = {}) {
  let response;
  try {
    response = await fetch(`${gateway}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  } catch {
    // A browser hides why: the gateway is down, or its CORS does not allow this page's origin.
    throw new Error(`Cannot reach Tessera at ${gateway} from ${window.location.origin}: is it running, and does it allow this origin?`);
  }
  return response.json();
}

async function graphql(query, variables = {}, headers = {}) {
  const answer = await call('/graphql', { query, variables }, { authorization: `Bearer ${key}`, ...headers });
  if (answer.errors?.length) throw new Error(answer.errors.map((error) => error.message).join('; '));
  return answer.data;
}

const money = (amount) => new Intl.NumberFormat('en', { style: 'currency', currency: state.brand.currency }).format(amount);
function element(tag, properties = {}, children = []) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

async function start() {
  const data = await graphql(`
    {
      viewer {
        brands {
          uuid
          name
          currency
        }
      }
      featuredListings {
        id
        title
        summary
        advertisedPrice
        experienceId
      }
    }
  `);
  state.brand = data.viewer.brands[0];
  $('brand').textContent = state.brand.name;
  const list = $('listing-list');
  for (const listing of data.featuredListings.filter((l) => l.experienceId)) {
    const book = element('button', { type: 'button', textContent: 'Book' });
    book.addEventListener('click', () => openExperience(listing.experienceId).catch((error) => show(error.message, true)));
    list.append(
      element('li', { className: 'listing' }, [
        element('div', {}, [
          element('strong', { textContent: listing.title }),
          element('div', { className: 'hint', textContent: listing.summary }),
        ]),
        element('span', {}, [`from ${money(listing.advertisedPrice)} `, book]),
      ]),
    );
  }
  $('listings').hidden = false;
  show('');
}

function localDate(daysAhead) {
  const day = new Date(Date.now() + daysAhead * 86_400_000);
  return day.toISOString().slice(0, 10);
}

/** Now as a local `YYYY-MM-DDTHH:MM:SS` in `timezone`, comparable with a session's start. */
function localNow(timezone) {
  const format = new Intl.DateTimeFormat('sv-SE', { timeZone: timezone, dateStyle: 'short', timeStyle: 'medium', hourCycle: 'h23' });
  return format.format(new Date()).replace(' ', 'T');
}

async function openExperience(id) {
  show('Loading the experience…');
  const { experience } = await graphql(
    `
      query ($brandId: UUID!, $id: UUID!, $from: LocalDate!, $to: LocalDate!) {
        experience(brandId: $brandId, id: $id) {
          uuid
          title
          headline
          priceTiers {
            name
            price
          }
          customQuestions {
            customQuestionId
            prompt
            fieldType
            options {
              key
              value
            }
            termsAndConditions {
              label
            }
            config {
              isRequired
              isActive
              order
              scope
              conditions {
                conditionKey
                conditionValue
              }
              conditionsMatchType
            }
          }
          sessions(from: $from, to: $to) {
            startDateTime
            timezone
            remaining
          }
        }
      }
    `,
    { brandId: state.brand.uuid, id, from: localDate(0), to: localDate(13) },
  );
  state.experience = experience;
  $('experience-title').textContent = experience.title;
  $('experience-headline').textContent = experience.headline;
  const open = experience.sessions.filter((session) => session.remaining > 0 && session.startDateTime > localNow(session.timezone));
  $('session').replaceChildren(
    ...open.map((s) =>
      element('option', { value: s.startDateTime, textContent: `${s.startDateTime.replace('T', ' ').slice(0, 16)} · ${s.remaining} left` }),
    ),
  );
  $('purchaser-questions').replaceChildren(...questionsOf('PURCHASER').map((q) => questionField(q, 'purchaser')));
  $('guests').replaceChildren();
  state.guests = 0;
  addGuest();
  $('listings').hidden = true;
  $('experience').hidden = false;
  refreshConditions();
  show(open.length ? '' : 'No session with places left in the next two weeks.');
}

const questionsOf = (scope) =>
  state.experience.customQuestions
    .filter((q) => q.config.isActive && q.config.scope === scope)
    .sort((a, b) => a.config.order - b.config.order);

/** One question's field; `respondent` is `purchaser` or `guest-<n>`. */
function questionField(question, respondent) {
  const name = `${respondent}:${question.customQuestionId}`;
  const required = question.config.isRequired;
  const wrapper = element('div', { className: 'question' });
  wrapper.dataset.respondent = respondent;
  wrapper.dataset.question = question.customQuestionId;
  const label = `${question.prompt}${required ? ' *' : ''}`;
  switch (question.fieldType) {
    case 'TEXTAREA':
      wrapper.append(element('label', {}, [label, element('textarea', { name })]));
      break;
    case 'SINGLE_SELECT':
      wrapper.append(
        element('label', {}, [
          label,
          element('select', { name }, [
            element('option', { value: '', textContent: '—' }),
            ...question.options.map((o) => element('option', { value: o.key, textContent: o.value })),
          ]),
        ]),
      );
      break;
    case 'MULTIPLE_SELECT':
      wrapper.append(
        element('fieldset', {}, [
          element('legend', { textContent: label }),
          ...question.options.map((o) => element('label', {}, [element('input', { type: 'checkbox', name, value: o.key }), ` ${o.value}`])),
        ]),
      );
      break;
    case 'TERMS_AND_CONDITIONS':
      wrapper.append(
        element('label', {}, [
          element('input', { type: 'checkbox', name, value: 'true' }),
          ` ${question.termsAndConditions?.label ?? label}`,
        ]),
      );
      break;
    default:
      wrapper.append(element('label', {}, [label, element('input', { name })]));
  }
  wrapper.addEventListener('change', refreshConditions);
  return wrapper;
}

function addGuest() {
  const n = state.guests++;
  const respondent = `guest-${n}`;
  const tiers = state.experience.priceTiers;
  $('guests').append(
    element('fieldset', { className: 'guest' }, [
      element('legend', { textContent: `Guest ${n + 1}` }),
      element('label', {}, ['First name ', element('input', { name: `${respondent}:first`, required: true })]),
      element('label', {}, ['Last name ', element('input', { name: `${respondent}:last`, required: true })]),
      element('label', {}, [
        'Ticket ',
        element(
          'select',
          { name: `${respondent}:tier` },
          tiers.map((t) => element('option', { value: t.name, textContent: `${t.name} · ${money(t.price)}` })),
        ),
      ]),
      ...questionsOf('PARTICIPANT').map((q) => questionField(q, respondent)),
    ]),
  );
  refreshConditions();
}

/** Option keys chosen for a question by a respondent (or, for a purchaser question, by the purchaser). */
function chosenKeys(respondent, questionId) {
  const own = [...document.getElementsByName(`${respondent}:${questionId}`)];
  const fields = own.length ? own : [...document.getElementsByName(`purchaser:${questionId}`)];
  if (fields.some((f) => f.closest('.question')?.hidden)) return [];
  return fields.filter((f) => (f.type === 'checkbox' ? f.checked : f.value !== '')).map((f) => f.value);
}

/** Shows a conditional question only while its conditions hold, as checkout judges them. */
function refreshConditions() {
  for (const wrapper of document.querySelectorAll('.question')) {
    const question = state.experience.customQuestions.find((q) => q.customQuestionId === wrapper.dataset.question);
    const conditions = question.config.conditions ?? [];
    if (conditions.length === 0) continue;
    const met = (c) => chosenKeys(wrapper.dataset.respondent, c.conditionKey).includes(c.conditionValue);
    wrapper.hidden = !(question.config.conditionsMatchType === 'ALL' ? conditions.every(met) : conditions.some(met));
  }
}

/** The answers of one respondent, as checkout takes them. */
function answersOf(respondent, scope) {
  const answers = [];
  for (const question of questionsOf(scope)) {
    const fields = [...document.getElementsByName(`${respondent}:${question.customQuestionId}`)];
    if (fields.length === 0 || fields[0].closest('.question').hidden) continue;
    const chosen = fields.filter((f) => (f.type === 'checkbox' ? f.checked : f.value.trim() !== ''));
    if (chosen.length === 0) continue;
    const label = (f) => question.options?.find((o) => o.key === f.value)?.value ?? f.value;
    const answer =
      question.fieldType === 'SINGLE_SELECT' || question.fieldType === 'MULTIPLE_SELECT'
        ? chosen.map((f) => ({ value: label(f), key: f.value }))
        : [{ value: chosen[0].value.trim() }];
    answers.push({ questionId: question.customQuestionId, answer });
  }
  return answers;
}

const field = (name) => document.getElementsByName(name)[0].value.trim();

function newCartId() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The human check's token, for brands that ask for one: what the challenge widget in #human-check left in
 * its form field, or `?humanCheck=` (the sandbox verifier's `pass`, in development). None: no header.
 */
function humanCheckHeaders() {
  const token = document.querySelector('#human-check [name="cf-turnstile-response"]')?.value || params.get('humanCheck');
  return token ? { 'tessera-human-check': token } : {};
}

async function checkOut(event) {
  event.preventDefault();
  show('Checking out…');
  const participants = Array.from({ length: state.guests }, (_, n) => ({
    firstName: field(`guest-${n}:first`),
    lastName: field(`guest-${n}:last`),
    priceTierName: field(`guest-${n}:tier`),
    customQuestionResponses: answersOf(`guest-${n}`, 'PARTICIPANT'),
  }));
  const { createPaymentIntent: intent } = await graphql(
    `
      mutation ($brandId: UUID!, $cartId: UUID!, $input: CreatePaymentIntentInput!) {
        createPaymentIntent(brandId: $brandId, cartId: $cartId, input: $input) {
          totalNetAmount
          paymentIntentSecret
          cart {
            confirmationCode
            bookings {
              id
              status
            }
          }
        }
      }
    `,
    {
      brandId: state.brand.uuid,
      cartId: newCartId(),
      input: {
        data: [{ sessionTime: $('session').value, experienceId: state.experience.uuid, participants }],
        purchaser: {
          firstName: field('purchaser-first'),
          lastName: field('purchaser-last'),
          emailAddress: field('purchaser-email'),
          customQuestionResponses: answersOf('purchaser', 'PURCHASER'),
        },
      },
    },
    humanCheckHeaders(),
  );
  state.intent = intent;
  $('experience').hidden = true;
  if (!intent.paymentIntentSecret) return confirmed('Nothing to pay.');
  $('total').textContent = money(intent.totalNetAmount);
  $('payment').hidden = false;
  show('');
}

async function pay() {
  show('Paying…');
  const answer = await call('/v1/sandbox/payment_intents/confirm', {
    paymentIntentSecret: state.intent.paymentIntentSecret,
    outcome: 'succeeded',
  });
  if (answer.paymentIntentStatus !== 'succeeded') throw new Error(answer.error?.message ?? 'The payment did not go through');
  $('payment').hidden = true;
  confirmed(`Paid ${money(state.intent.totalNetAmount)}.`);
}

function confirmed(detail) {
  $('confirmation-code').textContent = state.intent.cart.confirmationCode;
  $('confirmation-detail').textContent = `${detail} ${state.experience.title}, ${$('session').value.replace('T', ' ').slice(0, 16)}.`;
  $('confirmation').hidden = false;
  show('');
}

const reportErrors = (work) => (event) => work(event).catch((error) => show(error.message, true));
$('booking-form').addEventListener('submit', reportErrors(checkOut));
$('add-guest').addEventListener('click', () => addGuest());
$('pay').addEventListener('click', reportErrors(pay));
start().catch((error) => show(error.message, true));
