import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parser } from '@prometheus-io/lezer-promql';
import { Histogram } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { createSeatflowMetrics } from '../../../src/control/metrics/seatflow-metrics.js';
import { ROOT } from '../../helpers/run-seatflow.js';

const ALERTS = path.join(ROOT, 'deploy', 'prometheus', 'alerts.yaml');
const DASHBOARD = path.join(ROOT, 'deploy', 'grafana', 'seatflow.json');
/** Labels Prometheus itself attaches to every scraped series. */
const TARGET_LABELS = new Set(['instance', 'job']);

const rulesSchema = z.strictObject({
  groups: z.array(
    z.strictObject({
      name: z.string().min(1),
      rules: z.array(
        z.strictObject({
          alert: z.string().regex(/^Seatflow[A-Za-z0-9]+$/),
          expr: z.string().min(1),
          for: z.string().regex(/^\d+[smhd]$/).optional(),
          labels: z.strictObject({ severity: z.enum(['page', 'ticket', 'info']) }),
          annotations: z.strictObject({ summary: z.string().min(1), description: z.string().min(1) }),
        }),
      ),
    }),
  ),
});

interface GrafanaPanel {
  title?: string;
  targets?: Array<{ expr?: string }>;
  panels?: GrafanaPanel[];
}

/** Every metric name a scrape of seatflow can show, with the labels of each (histograms: their three series). */
function exportedMetrics(): Map<string, Set<string>> {
  const metrics = createSeatflowMetrics();
  const names = new Map<string, Set<string>>();
  for (const metric of metrics.registry.getMetricsAsArray()) {
    const { name, labelNames } = metric as unknown as { name: string; labelNames: string[] };
    const labels = new Set(labelNames);
    if (metric instanceof Histogram) {
      names.set(`${name}_bucket`, new Set([...labels, 'le']));
      names.set(`${name}_sum`, labels);
      names.set(`${name}_count`, labels);
    } else names.set(name, labels);
  }
  return names;
}

/** The metrics and labels an expression uses, by PromQL's own grammar (the one Prometheus's UI parses with). */
function selectorsOf(expr: string): { errors: string[]; metrics: Array<{ name: string; labels: string[] }>; grouping: string[] } {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const metrics: Array<{ name: string; labels: string[] }> = [];
  const grouping: string[] = [];
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(`syntax error at ${node.from}: …${expr.slice(Math.max(0, node.from - 20), node.from + 20)}…`);
      if (node.name === 'VectorSelector') {
        const name = node.node.getChild('Identifier');
        const labels = node.node.getChild('LabelMatchers')?.getChildren('UnquotedLabelMatcher').map((matcher) => matcher.getChild('LabelName')) ?? [];
        metrics.push({ name: name === null ? '' : expr.slice(name.from, name.to), labels: labels.flatMap((label) => (label === null ? [] : [expr.slice(label.from, label.to)])) });
      }
      if (node.name === 'GroupingLabels') for (const label of node.node.getChildren('LabelName')) grouping.push(expr.slice(label.from, label.to));
    },
  });
  return { errors, metrics, grouping };
}

/** Grafana's own variables, as a query sends them to Prometheus. */
function withGrafanaVariables(expr: string): string {
  return expr.replaceAll('$__rate_interval', '5m').replaceAll('$__interval', '1m').replaceAll('$__range', '1h');
}

function expressionProblems(where: string, expr: string, exported: Map<string, Set<string>>): string[] {
  const { errors, metrics, grouping } = selectorsOf(expr);
  const problems = errors.map((error) => `${where}: ${error}`);
  if (metrics.length === 0) problems.push(`${where}: uses no metric`);
  const labelsInUse = new Set<string>(TARGET_LABELS);
  for (const metric of metrics) {
    const labels = exported.get(metric.name);
    if (labels === undefined) {
      problems.push(`${where}: ${metric.name} is not a metric seatflow exports`);
      continue;
    }
    for (const label of labels) labelsInUse.add(label);
    for (const label of metric.labels) if (!labels.has(label) && !TARGET_LABELS.has(label)) problems.push(`${where}: ${metric.name} has no label ${label}`);
  }
  for (const label of grouping) if (!labelsInUse.has(label)) problems.push(`${where}: groups by ${label}, a label none of its metrics has`);
  return problems;
}

describe('Prometheus alert rules and the Grafana dashboard under deploy/', () => {
  const exported = exportedMetrics();

  it('the checker itself finds an unknown metric, an unknown label and a syntax error', () => {
    expect(expressionProblems('t', 'max(seatflow_workerz) > 0', exported)).toEqual(['t: seatflow_workerz is not a metric seatflow exports']);
    expect(expressionProblems('t', 'max by (phaze) (seatflow_offboarding_leavers{phase="holding"})', exported)).toEqual(['t: groups by phaze, a label none of its metrics has']);
    expect(expressionProblems('t', 'seatflow_queue_jobs{queue="rows"}', exported)).toEqual(['t: seatflow_queue_jobs has no label queue']);
    expect(expressionProblems('t', 'max(seatflow_workers', exported)[0]).toMatch(/^t: syntax error/);
  });

  it('alert rules are well formed, and every expression parses and uses only metrics and labels seatflow exports', () => {
    const rules = rulesSchema.parse(parseYaml(readFileSync(ALERTS, 'utf8')));
    const all = rules.groups.flatMap((group) => group.rules);
    expect(new Set(all.map((rule) => rule.alert)).size).toBe(all.length);
    expect(all.length).toBeGreaterThanOrEqual(10);
    const problems = all.flatMap((rule) => expressionProblems(rule.alert, rule.expr, exported));
    expect(problems).toEqual([]);
    // What the issue asked to alert on is there.
    const used = new Set(all.flatMap((rule) => selectorsOf(rule.expr).metrics.map((metric) => metric.name)));
    for (const name of ['seatflow_offboarding_steps_overdue', 'seatflow_offboarding_oldest_overdue_seconds', 'seatflow_offboarding_holds_ending_24h', 'seatflow_schedule_last_run_result', 'seatflow_schedule_next_run_timestamp_seconds', 'seatflow_info', 'seatflow_workers']) {
      expect(used, name).toContain(name);
    }
  });

  it('every panel query of the dashboard parses and uses only metrics and labels seatflow exports', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { uid: string; title: string; panels: GrafanaPanel[]; __inputs: Array<{ name: string }> };
    expect(dashboard).toMatchObject({ uid: 'seatflow', title: 'seatflow' });
    expect(dashboard.__inputs.map((input) => input.name)).toEqual(['DS_PROMETHEUS']);
    const panels = dashboard.panels.flatMap((panel) => [panel, ...(panel.panels ?? [])]);
    const queries = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: panel.title ?? '?', expr: target.expr ?? '' })));
    expect(queries.length).toBeGreaterThanOrEqual(20);
    expect(queries.flatMap(({ where, expr }) => expressionProblems(where, withGrafanaVariables(expr), exported))).toEqual([]);
  });
});
