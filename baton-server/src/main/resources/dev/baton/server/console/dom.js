// Builds the page's elements. Everything that comes from the server (messages, names, errors,
// IDs) goes in as text nodes or attribute values, never as markup: nothing a user or a model wrote
// is ever parsed as HTML.

/**
 * An element: attributes from `attrs` (`class`, `testid` for data-testid, `data` for other
 * data-* attributes, `on<event>` for listeners), then the children, strings as text.
 */
export function h(tag, attrs = {}, ...children) {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) {
      continue;
    }
    if (key === 'class') {
      element.className = value;
    } else if (key === 'testid') {
      element.dataset.testid = value;
    } else if (key === 'data') {
      Object.assign(element.dataset, value);
    } else if (key.startsWith('on')) {
      element.addEventListener(key.slice(2), value);
    } else {
      element.setAttribute(key, value === true ? '' : String(value));
    }
  }
  add(element, children);
  return element;
}

/** Appends children: nodes as they are, anything else as text; null and false are skipped. */
export function add(parent, children) {
  for (const child of [children].flat(Infinity)) {
    if (child == null || child === false) {
      continue;
    }
    parent.append(child instanceof Node ? child : String(child));
  }
  return parent;
}

/** Replaces an element's content. */
export function replace(parent, ...children) {
  parent.replaceChildren();
  return add(parent, children);
}

/** A hash link inside the console; each path segment is encoded. */
export function link(segments, query, ...children) {
  return h('a', { href: route(segments, query) }, ...children);
}

/** The hash of a console route. */
export function route(segments, query = {}) {
  const path = segments.map(encodeURIComponent).join('/');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value != null && value !== '') {
      params.set(key, value);
    }
  }
  const search = params.toString();
  return `#/${path}${search ? `?${search}` : ''}`;
}

/** A value as indented JSON text, for tool inputs and outputs and custom state. */
export function json(value) {
  return h('pre', { class: 'json' }, JSON.stringify(value, null, 2));
}
