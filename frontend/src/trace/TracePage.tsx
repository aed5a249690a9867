import { useEffect, useState, type ReactNode } from 'react';
import { certificateExpired, countryBadge, countryName, formatArea, formatDate, harvestPeriod, productName, supplierName, type TraceLanguage } from './format';
import { TraceMap } from './TraceMap';
import { fetchTrace, traceCodeFromPath, type TraceData, type TraceResult, type WarehouseStep } from './traceApi';
import type { TraceText } from './traceText';

interface Props {
  text: TraceText;
  language: TraceLanguage;
  onLanguage: (language: TraceLanguage) => void;
}

function Card({ title, children, testId, accent = false }: { title: string; children: ReactNode; testId?: string; accent?: boolean }) {
  return (
    <section className={accent ? 'trace-card trace-card-accent' : 'trace-card'} data-testid={testId}>
      <h2>{title}</h2>
      {children}
    </section>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  if (children === '' || children === null || children === undefined) return null;
  return (
    <div className="trace-fact">
      <dt>{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

function LanguageToggle({ language, onLanguage, label }: { language: TraceLanguage; onLanguage: Props['onLanguage']; label: string }) {
  return (
    <div className="trace-lang" role="group" aria-label={label}>
      {(['zh', 'en'] as const).map((option) => (
        <button key={option} type="button" aria-pressed={language === option} onClick={() => onLanguage(option)} lang={option === 'zh' ? 'zh-CN' : 'en'}>
          {option === 'zh' ? '中文' : 'EN'}
        </button>
      ))}
    </div>
  );
}

const STEP_KINDS = ['received', 'stocked', 'put_away', 'shipped', 'delivered'] as const;
type StepKind = (typeof STEP_KINDS)[number];

/** The carton's way through the warehouse: received, posted to stock, put away, shipped, delivered, each with its
 *  date and country (the server sends nothing more: never the customer, a place in the warehouse or a
 *  document number). */
function WarehouseHistory({ steps, text, language }: { steps: WarehouseStep[]; text: TraceText; language: TraceLanguage }) {
  const known = steps.filter((step): step is WarehouseStep & { kind: StepKind } => (STEP_KINDS as readonly string[]).includes(step.kind));
  if (!known.length) return null;
  return (
    <Card title={text.warehouse.title} testId="trace-warehouse">
      <ol className="trace-steps">
        {known.map((step, index) => (
          <li key={`${step.kind}-${step.date}-${String(index)}`} data-testid="trace-warehouse-step" data-kind={step.kind}>
            <strong>{text.warehouse[step.kind]}</strong>
            <span className="trace-muted">
              {' · '}
              <time dateTime={step.date}>{formatDate(step.date, language)}</time>
              {step.country_code ? ` · ${countryName(step.country_code, step.country_code, language)}` : ''}
            </span>
          </li>
        ))}
      </ol>
    </Card>
  );
}

function TraceDetails({ data, text, language }: { data: TraceData; text: TraceText; language: TraceLanguage }) {
  const { origin } = data;
  const plots = data.plots;
  const totalArea = plots?.features.reduce((sum, f) => sum + (f.properties?.area_ha ?? 0), 0) ?? 0;
  return (
    <>
      <Card title={text.origin} testId="trace-origin" accent>
        <p className="trace-country">
          {countryBadge(origin.country_code) ? (
            <span className="trace-flag" aria-hidden="true" data-testid="trace-country-badge">
              {countryBadge(origin.country_code)}
            </span>
          ) : null}
          <span data-testid="trace-country">{countryName(origin.country_code, origin.country_name, language)}</span>
        </p>
        <dl className="trace-facts">
          <Fact label={text.species}>
            {origin.species.length ? (
              <ul className="trace-species">
                {origin.species.map((s) => (
                  <li key={`${s.scientific_name}|${s.common_name}`}>
                    <i>{s.scientific_name}</i>
                    {s.common_name ? <span className="trace-muted"> · {s.common_name}</span> : null}
                  </li>
                ))}
              </ul>
            ) : (
              ''
            )}
          </Fact>
          <Fact label={text.forestSupplier}>{origin.forest_supplier_name}</Fact>
          <Fact label={text.harvestPeriod}>{harvestPeriod(origin.harvest_begin_month, origin.harvest_end_month, language)}</Fact>
        </dl>
      </Card>

      <Card title={text.map} testId="trace-map-card">
        {data.geolocation_confidential ? (
          <p className="trace-muted" data-testid="trace-confidential">
            {text.confidential}
          </p>
        ) : data.plots_under_review ? (
          <p className="trace-muted" data-testid="trace-under-review">
            {text.underReview}
          </p>
        ) : plots?.features.length ? (
          <>
            <TraceMap plots={plots} text={text} />
            <p className="trace-muted trace-map-caption">
              {(plots.features.length === 1 ? text.plots_one : text.plots_other).replace('{{count}}', String(plots.features.length)).replace('{{area}}', formatArea(totalArea, language, text))}
            </p>
            <ol className="trace-plots">
              {plots.features.map((feature, index) => (
                <li key={index}>
                  <span className="trace-plot-no">{index + 1}</span>
                  <span>
                    {[
                      feature.geometry?.type.includes('Point') ? text.point : text.polygon,
                      formatArea(feature.properties?.area_ha, language, text),
                      feature.properties?.ProductionPlace,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </li>
              ))}
            </ol>
          </>
        ) : (
          <p className="trace-muted">{text.noPlots}</p>
        )}
      </Card>

      <Card title={text.product} testId="trace-product">
        <dl className="trace-facts">
          <Fact label={text.productName}>{productName(data, language)}</Fact>
          <Fact label={text.articleNumber}>{data.article_number}</Fact>
        </dl>
      </Card>

      <Card title={text.batch} testId="trace-batch">
        <dl className="trace-facts">
          <Fact label={text.batchCode}>{data.production_batch_code}</Fact>
          <Fact label={text.productionDate}>{formatDate(data.production_date, language)}</Fact>
          <Fact label={text.cartonNumber}>{data.batch_sequence ? String(data.batch_sequence) : ''}</Fact>
        </dl>
      </Card>

      <Card title={text.supplier} testId="trace-supplier">
        <dl className="trace-facts">
          <Fact label={text.supplierName}>{supplierName(data.supplier, language)}</Fact>
        </dl>
      </Card>

      <Card title={text.certifications} testId="trace-certifications">
        {data.certifications.length ? (
          <ul className="trace-certs">
            {data.certifications.map((cert) => (
              <li key={cert.kind}>
                <span className="trace-badge">{cert.scheme || cert.kind}</span>
                <div>
                  <strong>{cert.kind === 'FM' ? text.fm : text.coc}</strong>
                  {cert.claim && cert.claim !== cert.scheme ? <span> · {cert.claim}</span> : null}
                  <div className="trace-muted">
                    {[cert.certificate_number ? `${text.certificateNumber} ${cert.certificate_number}` : '', cert.valid_until ? `${certificateExpired(cert.valid_until) ? text.expiredOn : text.validUntil} ${formatDate(cert.valid_until, language)}` : '']
                      .filter(Boolean)
                      .join(' · ')}
                  </div>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="trace-muted">{text.noCertifications}</p>
        )}
      </Card>

      <WarehouseHistory steps={data.warehouse_history ?? []} text={text} language={language} />

      <Card title={text.dds} testId="trace-dds">
        {data.dds_reference_number ? (
          <>
            <dl className="trace-facts">
              <Fact label={data.dds_reference_kind === 'upstream' ? text.ddsUpstreamReference : text.ddsReference}>
                <code data-testid="trace-dds-reference">{data.dds_reference_number}</code>
              </Fact>
            </dl>
            <p className="trace-muted trace-small">{text.ddsExplain}</p>
          </>
        ) : (
          <p className="trace-muted">{text.noDds}</p>
        )}
      </Card>
    </>
  );
}

export function TracePage({ text, language, onLanguage }: Props) {
  const code = traceCodeFromPath(window.location.pathname);
  const [attempt, setAttempt] = useState(0);
  const [answer, setAnswer] = useState<{ attempt: number; code: string; result: TraceResult } | null>(null);
  const result = answer?.attempt === attempt && answer.code === code ? answer.result : null;

  useEffect(() => {
    if (!code) return undefined;
    let cancelled = false;
    void fetchTrace(code, language).then((next) => {
      if (!cancelled) setAnswer({ attempt, code, result: next });
    });
    return () => {
      cancelled = true;
    };
    // The language only changes the page's text; the facts are the same, so it does not refetch.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [code, attempt]);

  useEffect(() => {
    document.title = result?.kind === 'found' ? `${text.title} · ${result.data.code}` : text.title;
  }, [text.title, result]);

  return (
    <main className="trace-page">
      <header className="trace-header">
        <div>
          <h1>{text.title}</h1>
          <p className="trace-muted">{text.subtitle}</p>
        </div>
        <LanguageToggle language={language} onLanguage={onLanguage} label={text.language} />
      </header>
      {code ? (
        <p className="trace-code">
          {text.code} <strong data-testid="trace-code">{code}</strong>
        </p>
      ) : null}
      {!code ? (
        <p className="trace-message">{text.noCode}</p>
      ) : result === null ? (
        <div className="trace-message trace-loading" role="status">
          <span className="trace-spinner" aria-hidden="true" />
          {text.loading}
        </div>
      ) : result.kind === 'not-found' ? (
        <div className="trace-message trace-not-found" data-testid="trace-not-found">
          <h2>{text.notFoundTitle}</h2>
          <p>{text.notFound}</p>
          <p className="trace-muted">{text.notFoundHint}</p>
        </div>
      ) : result.kind === 'failed' ? (
        <div className="trace-message" role="alert" data-testid="trace-failed">
          <p>{result.message ?? text.failed}</p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            {text.retry}
          </button>
        </div>
      ) : (
        <TraceDetails data={result.data} text={text} language={language} />
      )}
      <footer className="trace-footer trace-muted">{text.footer}</footer>
    </main>
  );
}
