// The example booking page: lists a brand's featured listings, shows an experience with its sessions and
// questions, checks out through Tessera's GraphQL API with a publishable key, pays with the sandbox
// processor (the payment intent's client secret is the credential, as with Stripe.js) and shows the
// confirmation. Plain browser JavaScript, no build step. Configure with the query string:
// ?gateway=http://127.0.0.1:4000&key=pk_test_lisbon_demo
//
// Live updates (docs/graphql.md, "Live updates"): one graphql-ws client (its browser build, graphql-ws.js,
// served by this page's own server) on ws(s)://<gateway>/graphql, the key in connection_init, the page's
// origin checked against the key's as over HTTP. While an experience shows, `sessionAvailability` keeps
// each session's places left in the session list (a sold-out session is disabled, one that frees up comes
// back). After checkout, `cartUpdated` with the payment intent's client secret (what lets a publishable
// key watch its own cart) says "You're booked" once Tessera has confirmed the bookings, or that the hold
// lapsed. If no WebSocket gets through, the page works as without them (the line under the title says
// so): places as loaded, and the confirmation from the sandbox's answer.
//
// Payment: the page asks the gateway which processor it runs with (GET /v1/payments/settings). With
// Stripe it loads Stripe.js from js.stripe.com (as Stripe requires), mounts the Payment Element for the
// checkout's client secret and confirms it there; Tessera confirms the bookings from Stripe's webhook,
// which `cartUpdated` reports. With the sandbox it keeps the sandbox's Pay button.
const params = new URLSearchParams(window.location.search);
const gateway = (params.get('gateway') ?? 'http://127.0.0.1:4000').replace(/\/$/, '');
const key = params.get('key') ?? 'pk_test_lisbon_demo';

const $ = (id) => document.getElementById(id);
const state = { brand: null, experience: null, guests: 0, sessions: new Map(), booked: false };

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

/** One graphql-ws client for the page's subscriptions, made on first use; null when live updates are off. */
const live = { client: null, up: false, down: false, places: null, cart: null };

function showLive(text) {
  $('live').textContent = text;
  $('live').hidden = text === '';
}

function liveDown(why) {
  live.down = true;
  live.up = false;
  showLive(`Live updates are off (${why}): places are as loaded, and the payment's answer confirms the booking.`);
}

function liveClient() {
  if (live.client || live.down) return live.client;
  if (!window.graphqlWs) {
    liveDown('the WebSocket client did not load');
    return null;
  }
  const url = new URL(`${gateway}/graphql`);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  let connectedOnce = false;
  live.client = window.graphqlWs.createClient({
    url: url.href,
    connectionParams: { authorization: `Bearer ${key}` },
    retryAttempts: 2,
    on: {
      connected: () => {
        connectedOnce = true;
        live.up = true;
        live.down = false;
        showLive('Live: places left and your confirmation update as they happen.');
      },
      closed: (event) => {
        live.up = false;
        // 1000: the client closed it, having no subscription left (it reopens on the next).
        if (live.down || !live.client || event?.code === 1000) return;
        if (connectedOnce) showLive('Live updates: reconnecting…');
        else liveDown(`no WebSocket to ${url.host}`);
      },
    },
  });
  return live.client;
}

/** Ends one subscription (`name`: places or cart); with none left once booked, closes the connection. */
function stopWatching(name) {
  live[name]?.();
  live[name] = null;
  if (state.booked && !live.places && !live.cart && live.client) {
    const client = live.client;
    live.client = null;
    client.dispose();
    showLive('');
  }
}

/** The gateway's processor (GET /v1/payments/settings); the sandbox when it cannot say. */
async function paymentSettings() {
  try {
    const response = await fetch(`${gateway}/v1/payments/settings`);
    if (response.ok) return await response.json();
  } catch {
    // An older gateway, or none: the sandbox's button, as before.
  }
  return { processor: 'sandbox', stripePublishableKey: null };
}

/** Stripe.js, loaded once from Stripe (never bundled or served from elsewhere, as Stripe requires). */
function loadStripeJs() {
  if (window.Stripe) return Promise.resolve(window.Stripe);
  return new Promise((resolve, reject) => {
    const script = element('script', { src: 'https://js.stripe.com/v3/' });
    script.addEventListener('load', () => resolve(window.Stripe));
    script.addEventListener('error', () => reject(new Error('Cannot load Stripe.js from js.stripe.com')));
    document.head.append(script);
  });
}

/** With Stripe: the Payment Element for the checkout's client secret, mounted in the payment section. */
async function mountStripe(clientSecret) {
  const Stripe = await loadStripeJs();
  const stripe = Stripe(state.payments.stripePublishableKey);
  const elements = stripe.elements({ clientSecret });
  elements.create('payment').mount('#payment-element');
  $('payment-hint').textContent = 'Card payments through Stripe.';
  state.stripe = { stripe, elements };
}

async function start() {
  state.payments = await paymentSettings();
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
  const [from, to] = [localDate(0), localDate(13)];
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
    { brandId: state.brand.uuid, id, from, to },
  );
  state.experience = experience;
  $('experience-title').textContent = experience.title;
  $('experience-headline').textContent = experience.headline;
  state.sessions = new Map(experience.sessions.map((s) => [s.startDateTime, s]));
  $('session').replaceChildren();
  const open = renderSessions();
  $('purchaser-questions').replaceChildren(...questionsOf('PURCHASER').map((q) => questionField(q, 'purchaser')));
  $('guests').replaceChildren();
  state.guests = 0;
  addGuest();
  $('listings').hidden = true;
  $('experience').hidden = false;
  refreshConditions();
  show(open ? '' : 'No session with places left in the next two weeks.');
  watchPlaces(id, from, to);
}

/**
 * Brings the session list up to date with `state.sessions`, in place (a list the guest has open stays
 * open): each future session with its places left, a sold-out one disabled. Returns how many can be booked.
 */
function renderSessions() {
  const select = $('session');
  const options = new Map([...select.options].map((o) => [o.value, o]));
  const future = [...state.sessions.values()]
    .filter((s) => s.startDateTime > localNow(s.timezone))
    .sort((a, b) => a.startDateTime.localeCompare(b.startDateTime));
  const chosen = select.value;
  const shown = new Set(future.map((s) => s.startDateTime));
  for (const [value, option] of options) if (!shown.has(value)) option.remove();
  let before = null;
  for (const session of [...future].reverse()) {
    let option = options.get(session.startDateTime);
    if (!option) option = element('option', { value: session.startDateTime });
    if (option.nextSibling !== before || option.parentNode !== select) select.insertBefore(option, before);
    const when = session.startDateTime.replace('T', ' ').slice(0, 16);
    option.textContent = session.remaining > 0 ? `${when} · ${session.remaining} left` : `${when} · sold out`;
    option.disabled = session.remaining <= 0;
    before = option;
  }
  const open = future.filter((s) => s.remaining > 0);
  if (chosen && select.selectedOptions[0]?.disabled) {
    const next = [...select.options].find((o) => !o.disabled);
    if (next) next.selected = true;
    show(`The session of ${chosen.replace('T', ' ').slice(0, 16)} just sold out: please choose another.`, true);
  }
  return open.length;
}

/** Keeps the session list's places live while the experience shows. */
function watchPlaces(experienceId, from, to) {
  stopWatching('places');
  const client = liveClient();
  if (!client) return;
  live.places = client.subscribe(
    {
      query: `subscription ($brandId: UUID!, $experienceId: UUID!, $from: LocalDate!, $to: LocalDate!) {
        sessionAvailability(brandId: $brandId, experienceId: $experienceId, from: $from, to: $to) {
          startDateTime
          timezone
          remaining
        }
      }`,
      variables: { brandId: state.brand.uuid, experienceId, from, to },
    },
    {
      next: ({ data }) => {
        for (const session of data?.sessionAvailability ?? []) state.sessions.set(session.startDateTime, session);
        if (!$('experience').hidden) renderSessions();
      },
      error: () => (live.places = null),
      complete: () => (live.places = null),
    },
  );
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
  const cartId = newCartId();
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
      cartId,
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
  // The cart's watch first, so the connection stays open when the places' ends.
  if (intent.paymentIntentSecret) watchCart(cartId, intent.paymentIntentSecret);
  stopWatching('places');
  if (!intent.paymentIntentSecret) return confirmed('Nothing to pay.');
  $('total').textContent = money(intent.totalNetAmount);
  if (state.payments.processor === 'stripe' && state.payments.stripePublishableKey) await mountStripe(intent.paymentIntentSecret);
  $('payment').hidden = false;
  show('');
}

/**
 * Waits, over the live connection, for Tessera to confirm the cart's bookings (or to say the hold lapsed):
 * the payment's answer only says the processor took the money. The client secret lets a publishable key
 * watch its own cart.
 */
function watchCart(cartId, paymentIntentSecret) {
  const client = liveClient();
  if (!client) return;
  const lost = () => {
    live.cart = null;
    // The connection gave up after the payment went through: its answer confirms, as without live updates.
    if (state.paid && !state.booked) confirmed(`Paid ${money(state.intent.totalNetAmount)}.`);
  };
  live.cart = client.subscribe(
    {
      query: `subscription ($brandId: UUID!, $cartId: UUID!, $secret: String) {
        cartUpdated(brandId: $brandId, cartId: $cartId, paymentIntentSecret: $secret) {
          confirmationCode
          bookings {
            status
          }
        }
      }`,
      variables: { brandId: state.brand.uuid, cartId, secret: paymentIntentSecret },
    },
    {
      next: ({ data }) => {
        const statuses = data?.cartUpdated?.bookings.map((b) => b.status) ?? [];
        if (statuses.length > 0 && statuses.every((status) => status === 'CONFIRMED')) {
          confirmed(`Paid ${money(state.intent.totalNetAmount)}.`, 'live');
        } else if (statuses.some((status) => status === 'FAILED' || status === 'CANCELLED')) {
          state.booked = true;
          stopWatching('cart');
          $('payment').hidden = true;
          show('The booking did not go through: the hold on your places lapsed or the payment failed. Please book again.', true);
        }
      },
      error: lost,
      complete: lost,
    },
  );
}

/** With Stripe: confirms the payment in the browser; the booking is confirmed by Stripe's webhook to Tessera. */
async function payWithStripe() {
  const { stripe, elements } = state.stripe;
  const { error, paymentIntent } = await stripe.confirmPayment({
    elements,
    confirmParams: { return_url: window.location.href },
    redirect: 'if_required',
  });
  // A declined card keeps the hold: the guest may try another one.
  if (error) throw new Error(error.message ?? 'The payment did not go through');
  if (paymentIntent?.status !== 'succeeded' && paymentIntent?.status !== 'processing') throw new Error('The payment did not go through');
  state.paid = true;
  if (state.booked) return;
  $('payment').hidden = true;
  show('Paid: waiting for the confirmation…');
}

async function pay() {
  if (state.stripe) return payWithStripe();
  show('Paying…');
  const answer = await call('/v1/sandbox/payment_intents/confirm', {
    paymentIntentSecret: state.intent.paymentIntentSecret,
    outcome: 'succeeded',
  });
  if (answer.paymentIntentStatus !== 'succeeded') throw new Error(answer.error?.message ?? 'The payment did not go through');
  state.paid = true;
  if (state.booked) return;
  $('payment').hidden = true;
  // Connected: the confirmation comes from Tessera (watchCart). Otherwise the payment's answer is all there is.
  if (live.cart && live.up) show('Paid: waiting for the confirmation…');
  else {
    stopWatching('cart');
    confirmed(`Paid ${money(state.intent.totalNetAmount)}.`);
  }
}

/** Shows "You're booked"; `via` says what told the page (`live`: the cart's subscription; `answer`: an HTTP answer). */
function confirmed(detail, via = 'answer') {
  if (state.booked) return;
  state.booked = true;
  stopWatching('cart');
  $('payment').hidden = true;
  $('confirmation-code').textContent = state.intent.cart.confirmationCode;
  $('confirmation-detail').textContent = `${detail} ${state.experience.title}, ${$('session').value.replace('T', ' ').slice(0, 16)}.`;
  $('confirmation').dataset.via = via;
  $('confirmation').hidden = false;
  show('');
}

const reportErrors = (work) => (event) => work(event).catch((error) => show(error.message, true));
$('booking-form').addEventListener('submit', reportErrors(checkOut));
$('add-guest').addEventListener('click', () => addGuest());
$('pay').addEventListener('click', reportErrors(pay));
start().catch((error) => show(error.message, true));
