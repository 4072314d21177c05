// Building DOM and SVG elements without a framework.

const SVG_NS = 'http://www.w3.org/2000/svg';

// Sets attributes (`on…` functions become listeners; null/false values are skipped) and
// appends children (strings become text; null/false children are skipped).
function fill(el, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      el.addEventListener(key.slice(2), value);
    } else if (key === 'dataset') {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(key, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** An HTML element: h('button', {type: 'button', onclick: f}, 'Pass'). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as `h`. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Replaces every child of `el`. */
export function replaceChildren(el, ...children) {
  el.replaceChildren();
  return fill(el, null, children);
}
