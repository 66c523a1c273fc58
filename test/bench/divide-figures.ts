import { type Figure, figureSections, type TreeFigures } from './bench-report.js';
import { roundTo } from './bench-statistics.js';

/** `numerator / denominator`, to 3 decimals; null when either is null or the denominator is 0. */
export function divideFigure(numerator: Figure | undefined, denominator: Figure | undefined): Figure {
  if (numerator === null || numerator === undefined || denominator === null || denominator === undefined || denominator === 0) return null;
  return roundTo(numerator / denominator, 3);
}

/** Every figure of `own` divided by the same figure of `ref` (the `ratios` of `--against`); details only where both have them. */
export function divideFigures(own: TreeFigures, ref: TreeFigures): TreeFigures {
  const divideSection = <S extends Readonly<Record<string, Figure>>>(ours: S, theirs: S): S =>
    Object.fromEntries(Object.keys(ours).map((name) => [name, divideFigure(ours[name], theirs[name])])) as S;
  const sections = Object.fromEntries(figureSections.map((section) => [section, divideSection(own[section], ref[section])])) as Omit<TreeFigures, 'details'>;
  const details = Object.fromEntries(Object.keys(own.details).filter((name) => name in ref.details).map((name) => [name, divideFigure(own.details[name], ref.details[name])]));
  return { ...sections, details };
}
