import type { ReadAndScoreResult } from '../../ops/read-and-score.js';
import type { Score, ScoreCheck } from '../../ops/score-rubric.js';
import type { OPERATIONS } from '../operations.js';
import type { ReplyOf } from '../register-operation.js';
import type { scoreCheckSchema, scoreSchema } from '../schemas.js';
import type { WireOf } from './check.js';
import { onWire } from './check.js';
import { renamed, wireNames } from './names.js';
import { readResponseBody } from './read.js';

/** The score of score and read-and-score on the wire (also `pith score --json`). */

type WireCheck = WireOf<typeof scoreCheckSchema>;

const CHECK_NAMES = wireNames<ScoreCheck, WireCheck>()({
  id: 'id',
  label: 'label',
  passed: 'passed',
  points: 'points',
  maxPoints: 'max_points',
  detail: 'detail',
});

export function scoreOnWire(score: Score): WireOf<typeof scoreSchema> {
  return { value: score.value, grade: score.grade, checks: score.checks.map((check) => renamed(check, CHECK_NAMES)) };
}

/** The JSON body of a score. */
export function scoreResponseBody(result: { url: string; score: Score }): ReplyOf<typeof OPERATIONS.score> {
  return { status: 'success', url: result.url, score: scoreOnWire(result.score) };
}

type ReadAndScoreAnswer = ReplyOf<(typeof OPERATIONS)['read-and-score']>;

/** The JSON body of a read-and-score: read's, plus `score`. */
export function readAndScoreResponseBody(result: ReadAndScoreResult, cacheHit: boolean): ReadAndScoreAnswer {
  return onWire<ReadAndScoreAnswer>()({ ...readResponseBody(result, cacheHit), score: scoreOnWire(result.score) });
}
