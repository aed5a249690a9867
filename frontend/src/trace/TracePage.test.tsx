import { render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TracePage } from './TracePage';
import type { TraceData } from './traceApi';
import { traceText } from './traceText';

const DATA: TraceData = {
  code: 'K7Q2M4XZ9A',
  article_number: 'CT-DW-4030',
  product_name: 'Double wall carton',
  product_name_zh: '双瓦楞纸箱',
  production_batch_code: '20260301A',
  production_date: '2026-03-01',
  batch_sequence: 7,
  supplier: { name: 'Shanghai Evergreen Packaging', cname: '上海常青包装' },
  origin: {
    country_code: 'CN',
    country_name: 'China',
    species: [],
    forest_supplier_name: '',
    harvest_begin_month: '',
    harvest_end_month: '',
  },
  certifications: [],
  geolocation_confidential: true,
  plots: null,
  dds_reference_number: '',
  warehouse_history: [
    { kind: 'received', date: '2026-03-20', country_code: 'NL' },
    { kind: 'stocked', date: '2026-03-20', country_code: 'NL' },
    { kind: 'put_away', date: '2026-03-21', country_code: 'NL' },
    { kind: 'shipped', date: '2026-04-02', country_code: 'NL' },
    { kind: 'delivered', date: '2026-04-03', country_code: 'NL' },
  ],
};

function answer(data: TraceData) {
  return vi.fn(() => Promise.resolve(new Response(JSON.stringify({ code: 0, msg: 'ok', data }), { status: 200 })));
}

describe('the trace page shows the carton\'s way through the warehouse', () => {
  beforeEach(() => window.history.replaceState(null, '', `/eudrtrace/${DATA.code}`));
  afterEach(() => vi.unstubAllGlobals());

  it('lists received, taken into stock, put away and shipped with dates and the country, in English', async () => {
    vi.stubGlobal('fetch', answer(DATA));
    render(<TracePage text={traceText('en')} language="en" onLanguage={() => undefined} />);
    const card = await screen.findByTestId('trace-warehouse');
    expect(within(card).getByRole('heading', { name: 'Way through the warehouse' })).toBeTruthy();
    const steps = within(card).getAllByTestId('trace-warehouse-step');
    expect(steps.map((s) => s.getAttribute('data-kind'))).toEqual(['received', 'stocked', 'put_away', 'shipped', 'delivered']);
    expect(steps[0]?.textContent).toContain('Received');
    expect(steps[2]?.textContent).toContain('Put away');
    expect(steps[3]?.textContent).toContain('Shipped');
    expect(steps[3]?.textContent).toContain('2 Apr 2026');
    expect(steps[3]?.textContent).toContain('Netherlands');
    expect(steps[3]?.querySelector('time')?.getAttribute('dateTime')).toBe('2026-04-02');
    expect(steps[4]?.textContent).toContain('Delivered');
  });

  it('says a certificate whose validity has passed is expired, and a valid one valid until', async () => {
    const certifications = [
      { kind: 'FM' as const, scheme: 'FSC', claim: 'FSC 100%', certificate_number: 'FSC-C000001', valid_until: '2020-01-31' },
      { kind: 'COC' as const, scheme: 'PEFC', claim: '', certificate_number: 'PEFC-01', valid_until: '2999-12-31' },
    ];
    vi.stubGlobal('fetch', answer({ ...DATA, certifications }));
    render(<TracePage text={traceText('en')} language="en" onLanguage={() => undefined} />);
    const card = await screen.findByTestId('trace-certifications');
    const [expired, valid] = within(card).getAllByRole('listitem');
    expect(expired?.textContent).toContain('Expired on 31 Jan 2020');
    expect(valid?.textContent).toContain('Valid until 31 Dec 2999');
  });

  it('speaks Chinese', async () => {
    vi.stubGlobal('fetch', answer(DATA));
    render(<TracePage text={traceText('zh')} language="zh" onLanguage={() => undefined} />);
    const card = await screen.findByTestId('trace-warehouse');
    expect(within(card).getByRole('heading', { name: '仓库流转' })).toBeTruthy();
    const text = card.textContent ?? '';
    for (const word of ['已收货', '已入库', '已上架', '已发货', '荷兰', '2026年4月2日']) expect(text).toContain(word);
  });

  it('shows no warehouse card for a carton not yet in a warehouse, and ignores kinds it does not know', async () => {
    vi.stubGlobal('fetch', answer({ ...DATA, warehouse_history: [{ kind: 'teleported', date: '2026-01-01', country_code: 'NL' }] }));
    render(<TracePage text={traceText('en')} language="en" onLanguage={() => undefined} />);
    await screen.findByTestId('trace-origin');
    expect(screen.queryByTestId('trace-warehouse')).toBeNull();
  });

  it('names the origin country with a badge of letters, never a flag emoji (boxes without an emoji font)', async () => {
    vi.stubGlobal('fetch', answer(DATA));
    render(<TracePage text={traceText('en')} language="en" onLanguage={() => undefined} />);
    const origin = await screen.findByTestId('trace-origin');
    expect(within(origin).getByTestId('trace-country-badge').textContent).toBe('CN');
    expect(within(origin).getByTestId('trace-country').textContent).toBe('China');
    const page = document.body.textContent ?? '';
    expect(/[\u{1F1E6}-\u{1F1FF}]/u.test(page)).toBe(false);
  });

  it('the English and Chinese texts have the same warehouse keys', () => {
    expect(Object.keys(traceText('zh').warehouse).sort()).toEqual(Object.keys(traceText('en').warehouse).sort());
  });
});

describe('plots outside their country are not shown while they are checked', () => {
  beforeEach(() => window.history.replaceState(null, '', `/eudrtrace/${DATA.code}`));
  afterEach(() => vi.unstubAllGlobals());

  it('says the plots are being checked instead of drawing a map', async () => {
    vi.stubGlobal('fetch', answer({ ...DATA, geolocation_confidential: false, plots_under_review: true, plots: null }));
    render(<TracePage text={traceText('en')} language="en" onLanguage={() => undefined} />);
    expect(await screen.findByTestId('trace-under-review')).toHaveTextContent('The plots are being checked');
    expect(screen.queryByTestId('trace-confidential')).toBeNull();
  });
});
