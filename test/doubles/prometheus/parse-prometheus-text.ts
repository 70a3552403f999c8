// A strict reader of the Prometheus text exposition format (version 0.0.4), as a scraper reads `/metrics`: every line
// must be a HELP, TYPE or other comment, a sample or blank; a family's HELP and TYPE come before its samples and its
// samples are not interleaved with another family's; histograms have cumulative buckets ending in +Inf that equal
// their count. Any breach throws with the line number, so a test that parses the output proves it is well formed.

/** The metric types the format names. */
export type PrometheusType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

/** One sample line: its name (a histogram's carry `_bucket`, `_sum` or `_count`), labels and value. */
export interface PrometheusSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** One metric family: its HELP, TYPE and samples in the order written. */
export interface PrometheusFamily {
  name: string;
  help: string | undefined;
  type: PrometheusType;
  samples: PrometheusSample[];
}

const metricNamePattern = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const labelNamePattern = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const prometheusTypes: readonly PrometheusType[] = ['counter', 'gauge', 'histogram', 'summary', 'untyped'];

/** Parses a whole exposition strictly; families by name. Throws on the first line that breaks the format. */
export function parsePrometheusText(text: string): Map<string, PrometheusFamily> {
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  const families = new Map<string, PrometheusFamily>();
  /** families whose samples are over: another family's sample came after them */
  const closed = new Set<string>();
  let current: PrometheusFamily | undefined;
  const seenSamples = new Set<string>();
  /** families whose TYPE line was read */
  const typeLines = new Set<string>();
  const lines = text.split('\n');
  lines.pop();
  lines.forEach((line, index) => {
    const fail = (reason: string): never => {
      throw new Error(`line ${index + 1}: ${reason}: ${JSON.stringify(line)}`);
    };
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const comment = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line);
      // Other comments (`# UNIT` of OpenMetrics, or any text) are allowed and carry nothing.
      if (!comment) return;
      const [, keyword, name = '', rest = ''] = comment;
      if (!metricNamePattern.test(name)) fail('invalid metric name');
      if (closed.has(name)) fail(`${keyword} after the samples of ${name} ended`);
      let family = families.get(name);
      if (family && family.samples.length > 0) fail(`${keyword} after samples of ${name}`);
      if (!family) {
        family = { name, help: undefined, type: 'untyped', samples: [] };
        families.set(name, family);
      }
      if (current && current !== family) closed.add(current.name);
      current = family;
      if (keyword === 'HELP') {
        if (family.help !== undefined) fail(`a second HELP for ${name}`);
        family.help = unescapeHelp(rest, fail);
      } else {
        if (typeLines.has(name)) fail(`a second TYPE for ${name}`);
        if (!prometheusTypes.includes(rest as PrometheusType)) fail('unknown type');
        typeLines.add(name);
        family.type = rest as PrometheusType;
      }
      return;
    }
    const sample = parseSample(line, fail);
    const familyName = familyOf(sample.name, families);
    if (closed.has(familyName)) fail(`a sample of ${familyName} after its samples ended`);
    let family = families.get(familyName);
    if (!family) {
      family = { name: familyName, help: undefined, type: 'untyped', samples: [] };
      families.set(familyName, family);
    }
    if (current && current !== family) closed.add(current.name);
    current = family;
    checkSampleName(family, sample, fail);
    const identity = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seenSamples.has(identity)) fail('the same sample twice');
    seenSamples.add(identity);
    if (family.type === 'counter' && !(sample.value >= 0)) fail('a counter below zero');
    family.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

function parseSample(line: string, fail: (reason: string) => never): PrometheusSample {
  const nameMatch = /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line);
  if (!nameMatch) fail('a sample must start with a metric name');
  const name = nameMatch![1]!;
  let position = name.length;
  const labels: Record<string, string> = {};
  if (line[position] === '{') {
    position += 1;
    while (line[position] !== '}') {
      const labelMatch = /^([^=]*)="/.exec(line.slice(position));
      if (!labelMatch) fail('a label must be name="value"');
      const labelName = labelMatch![1]!;
      if (!labelNamePattern.test(labelName)) fail(`invalid label name ${labelName}`);
      if (labelName in labels) fail(`label ${labelName} twice`);
      position += labelMatch![0].length;
      let value = '';
      for (;;) {
        const character = line[position];
        if (character === undefined) fail('an unterminated label value');
        if (character === '"') break;
        if (character === '\\') {
          const escaped = line[position + 1];
          if (escaped === '\\') value += '\\';
          else if (escaped === '"') value += '"';
          else if (escaped === 'n') value += '\n';
          else fail('an invalid escape in a label value');
          position += 2;
          continue;
        }
        value += character;
        position += 1;
      }
      labels[labelName] = value;
      position += 1;
      if (line[position] === ',') position += 1;
      else if (line[position] !== '}') fail('labels must be separated by commas');
    }
    position += 1;
  }
  const rest = line.slice(position);
  const valueMatch = /^ (\S+)(?: (-?\d+))?$/.exec(rest);
  if (!valueMatch) fail('a sample needs one space, a value and an optional timestamp');
  return { name, labels, value: parseValue(valueMatch![1]!, fail) };
}

function parseValue(text: string, fail: (reason: string) => never): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  if (text === 'NaN') return Number.NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) fail(`invalid value ${text}`);
  return Number(text);
}

function unescapeHelp(text: string, fail: (reason: string) => never): string {
  return text.replace(/\\(.?)/g, (_escape, character: string) => {
    if (character === '\\') return '\\';
    if (character === 'n') return '\n';
    return fail('an invalid escape in HELP');
  });
}

/** The family a sample belongs to: a histogram's or summary's `_bucket`, `_sum` and `_count` go to their base. */
function familyOf(sampleName: string, families: ReadonlyMap<string, PrometheusFamily>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!sampleName.endsWith(suffix)) continue;
    const base = families.get(sampleName.slice(0, -suffix.length));
    if (base && (base.type === 'histogram' || base.type === 'summary')) return base.name;
  }
  return sampleName;
}

function checkSampleName(family: PrometheusFamily, sample: PrometheusSample, fail: (reason: string) => never): void {
  if (family.type === 'histogram') {
    if (sample.name === `${family.name}_bucket`) {
      if (sample.labels.le === undefined) fail('a bucket without le');
      return;
    }
    if (sample.name === `${family.name}_sum` || sample.name === `${family.name}_count`) return;
    fail(`histogram ${family.name} may only have _bucket, _sum and _count samples`);
  }
  if (family.type === 'summary') {
    if (sample.name === family.name && sample.labels.quantile !== undefined) return;
    if (sample.name === `${family.name}_sum` || sample.name === `${family.name}_count`) return;
    fail(`summary ${family.name} may only have quantiles, _sum and _count samples`);
  }
  if (sample.name !== family.name) fail(`sample ${sample.name} does not belong to ${family.name}`);
}

/** Per label set: buckets in increasing `le`, cumulative, the last at +Inf and equal to `_count`; a `_sum` beside. */
function checkHistogram(family: PrometheusFamily): void {
  const series = new Map<string, { buckets: Array<{ le: number; value: number }>; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    let entry = series.get(key);
    if (!entry) {
      entry = { buckets: [] };
      series.set(key, entry);
    }
    if (sample.name.endsWith('_bucket')) entry.buckets.push({ le: parseBound(le!, family.name), value: sample.value });
    else if (sample.name.endsWith('_count')) entry.count = sample.value;
    else entry.sum = sample.value;
  }
  for (const [labels, entry] of series) {
    const where = `histogram ${family.name} ${labels}`;
    if (entry.count === undefined || entry.sum === undefined) throw new Error(`${where}: _count and _sum required`);
    const last = entry.buckets.at(-1);
    if (last?.le !== Number.POSITIVE_INFINITY) throw new Error(`${where}: the last bucket must be le="+Inf"`);
    for (let index = 1; index < entry.buckets.length; index++) {
      const previous = entry.buckets[index - 1]!;
      const bucket = entry.buckets[index]!;
      if (!(bucket.le > previous.le)) throw new Error(`${where}: bucket bounds must increase`);
      if (bucket.value < previous.value) throw new Error(`${where}: buckets must be cumulative`);
    }
    if (last.value !== entry.count) throw new Error(`${where}: the +Inf bucket must equal _count`);
  }
}

function parseBound(text: string, familyName: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  const bound = Number(text);
  if (text.trim() === '' || Number.isNaN(bound)) throw new Error(`histogram ${familyName}: invalid le ${text}`);
  return bound;
}
