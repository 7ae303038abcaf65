/**
 * ESLint rule `pith/no-rescan`: a regex searched through text must not hold an unbounded
 * quantifier that can run over copies of the regex's own prefix.
 *
 * `/<url\b[^>]*>/g` on `<url<url<url…` (no `>`) starts a match at every copy, and each
 * attempt runs `[^>]*` to the end of the text: quadratic. eslint-plugin-regexp's
 * `no-super-linear-move` finds this only when the repeated attack string is one character
 * (`[[[[`); this rule covers prefixes of any length. A regex that makes one attempt
 * (sticky, or anchored with `^` and no `m` flag) is exempt.
 *
 * It also flags `RegExp(source)` built from a non-literal source, which no rule can check:
 * such a site needs a disable comment saying why its source is safe.
 */
import { RegExpParser, visitRegExpAST } from '@eslint-community/regexpp';
import { getFirstCharAfter, getLongestPrefix, isPotentiallyEmpty, toCharSet } from 'regexp-ast-analysis';

const parser = new RegExpParser({ ecmaVersion: 2025 });

function flagsOf(text) {
  return {
    dotAll: text.includes('s'),
    global: text.includes('g'),
    hasIndices: text.includes('d'),
    ignoreCase: text.includes('i'),
    multiline: text.includes('m'),
    sticky: text.includes('y'),
    unicode: text.includes('u'),
    unicodeSets: text.includes('v'),
  };
}

function isCharacterElement(node) {
  return node.type === 'Character' || node.type === 'CharacterSet' || (node.type === 'CharacterClass' && !node.unicodeSets);
}

/** `^` first: one attempt per input (no `m` flag) or per line (`m`). */
function startAnchor(alternative, flags) {
  const first = alternative.elements[0];
  if (first?.type !== 'Assertion' || first.kind !== 'start') return 'none';
  return flags.multiline ? 'line' : 'input';
}

/** Whether the match can still fail after `node` (something that consumes or asserts follows it). */
function canFailAfter(node, flags) {
  let current = node;
  while (current.parent && current.parent.type !== 'Pattern') {
    const parent = current.parent;
    if (parent.type === 'Alternative') {
      const rest = parent.elements.slice(parent.elements.indexOf(current) + 1);
      if (rest.some((element) => !isPotentiallyEmpty(element, flags))) return true;
    }
    current = parent;
  }
  return false;
}

/**
 * Character sets the rest of the match must start with after `quantifier`, as far as they are
 * fixed (plain characters and classes in the same alternative); empty when unknown.
 */
function fixedSuffix(quantifier, flags) {
  const sets = [];
  let current = quantifier;
  // Climb out of plain groups that end right after the quantifier: `([\s\S]*?)</url>`.
  for (;;) {
    const alternative = current.parent;
    if (alternative.type !== 'Alternative') return sets;
    for (const element of alternative.elements.slice(alternative.elements.indexOf(current) + 1)) {
      if (isCharacterElement(element)) sets.push(toCharSet(element, flags));
      else if (element.type === 'Quantifier' && element.min >= 1 && isCharacterElement(element.element)) {
        sets.push(toCharSet(element.element, flags));
        return sets;
      } else return sets;
    }
    const group = alternative.parent;
    if ((group.type !== 'Group' && group.type !== 'CapturingGroup') || group.alternatives.length !== 1) return sets;
    current = group;
  }
}

/** Character sets consumed (at least once) by every match before `node` is reached. */
function mandatoryBefore(node, flags) {
  const sets = [];
  let current = node;
  while (current.parent && current.parent.type === 'Alternative') {
    const alternative = current.parent;
    for (const element of alternative.elements.slice(0, alternative.elements.indexOf(current))) {
      if (isCharacterElement(element)) sets.push(toCharSet(element, flags));
      else if (element.type === 'Quantifier' && element.min >= 1 && isCharacterElement(element.element))
        sets.push(toCharSet(element.element, flags));
    }
    const group = alternative.parent;
    if ((group.type !== 'Group' && group.type !== 'CapturingGroup') || group.alternatives.length !== 1) break;
    current = group;
  }
  return sets;
}

/** The characters `c` of a leading `(?<!c)` or `(?<![…])`, or null. */
function leadingNegativeLookbehind(alternative, flags) {
  const first = alternative.elements[0];
  if (first?.type !== 'Assertion' || first.kind !== 'lookbehind' || !first.negate) return null;
  if (first.alternatives.length !== 1) return null;
  const [only] = first.alternatives[0].elements;
  return first.alternatives[0].elements.length === 1 && isCharacterElement(only) ? toCharSet(only, flags) : null;
}

/** Whether `suffix` can match somewhere in a run of copies of `copy` (a cyclic word of char sets). */
function suffixFitsIn(suffix, copy) {
  for (let offset = 0; offset < copy.length; offset++) {
    if (suffix.every((set, j) => !set.isDisjointWith(copy[(offset + j) % copy.length]))) return true;
  }
  return false;
}

/**
 * Unbounded quantifiers that can run over copies of the alternative's prefix while the rest
 * of the match keeps failing: every prefix position has a character the quantifier accepts,
 * and the rest cannot start (its first character, or its fixed beginning) inside such copies.
 */
function rescanningQuantifiers(alternative, flags, anchor) {
  const prefix = getLongestPrefix(alternative, 'ltr', flags, { includeAfter: false, looseGroups: true });
  if (prefix.length === 0) return [];
  const found = [];
  visitRegExpAST(alternative, {
    onQuantifierEnter(quantifier) {
      if (quantifier.max !== Number.POSITIVE_INFINITY || !isCharacterElement(quantifier.element)) return;
      if (!canFailAfter(quantifier, flags)) return;
      const scanned = toCharSet(quantifier.element, flags);
      // A character every attempt consumes before the quantifier, which the quantifier
      // cannot cross: the scan stops inside the next attempt (`src\s*=\s*"[^"]*"`).
      if (mandatoryBefore(quantifier, flags).some((set) => set.isDisjointWith(scanned))) return;
      const copy = prefix.map((set) => set.intersect(scanned));
      // `(?<!c)` first: a copy that ends in `c` starts no attempt of its own.
      const notAfter = leadingNegativeLookbehind(alternative, flags);
      if (notAfter) copy[copy.length - 1] = copy[copy.length - 1].without(notAfter);
      if (copy.some((set) => set.isEmpty)) return;
      const suffix = fixedSuffix(quantifier, flags);
      if (suffix.length > 0 ? suffixFitsIn(suffix, copy) : suffixFitsIn([getFirstCharAfter(quantifier, 'ltr', flags).char], copy)) return;
      // Anchored at line starts, each copy of the prefix must hold a line break to start an attempt.
      if (anchor === 'line' && !copy.some((set) => set.has(10) || set.has(13) || set.has(0x2028) || set.has(0x2029))) return;
      found.push(quantifier);
    },
  });
  return found;
}

function check(context, node, source, flagText) {
  let pattern;
  const flags = flagsOf(flagText);
  try {
    pattern = parser.parsePattern(source, 0, source.length, { unicode: flags.unicode, unicodeSets: flags.unicodeSets });
  } catch {
    return; // invalid regexes are reported by other tools
  }
  if (flags.sticky) return;
  for (const alternative of pattern.alternatives) {
    const anchor = startAnchor(alternative, flags);
    if (anchor === 'input') continue;
    for (const quantifier of rescanningQuantifiers(alternative, flags, anchor)) {
      context.report({
        node,
        messageId: 'rescan',
        data: { quantifier: quantifier.raw, prefix: alternative.raw.slice(0, 40) },
      });
    }
  }
}

function isRegExpCall(node) {
  return node.callee.type === 'Identifier' && node.callee.name === 'RegExp';
}

function stringValue(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  return null;
}

export const noRescan = {
  meta: {
    type: 'problem',
    docs: { description: 'disallow searched regexes whose unbounded quantifiers can run over copies of their own prefix' },
    schema: [],
    messages: {
      rescan:
        "'{{quantifier}}' can run over repeated copies of this regex's prefix ('{{prefix}}…'): every copy starts an attempt that scans to the end, quadratic on hostile text. Exclude the prefix's first character from the quantifier, scan by hand, or anchor the regex (sticky / ^).",
      dynamic:
        'RegExp built from a non-literal source cannot be checked for super-linear backtracking: build it from safe parts and say why in a disable comment.',
    },
  },
  create(context) {
    const onCall = (node) => {
      if (!isRegExpCall(node)) return;
      const source = stringValue(node.arguments[0]);
      const flags = node.arguments[1] === undefined ? '' : stringValue(node.arguments[1]);
      if (source === null || flags === null) {
        context.report({ node, messageId: 'dynamic' });
        return;
      }
      check(context, node, source, flags);
    };
    return {
      Literal(node) {
        if (node.regex) check(context, node, node.regex.pattern, node.regex.flags);
      },
      NewExpression: onCall,
      CallExpression: onCall,
    };
  },
};

export default { rules: { 'no-rescan': noRescan } };
