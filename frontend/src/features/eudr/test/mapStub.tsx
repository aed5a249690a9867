import type { PlotMapProps } from '@/shared/map/PlotMap';
import { plotFeatures, problemsByFeature } from '@/shared/map/plotMapModel';

/**
 * Stands in for the Leaflet map in jsdom (no canvas there): shows what the map was given. Use with
 * `vi.mock('@/shared/map/LazyPlotMap', () => import('../test/mapStub'))`.
 */
export function LazyPlotMap({ plots, areas, problems, selected }: PlotMapProps) {
  const keyed = problemsByFeature(problems);
  return (
    <div data-testid="plot-map" data-selected={selected ?? ''}>
      {plotFeatures(plots).map((feature) => {
        const index = feature.properties.__plotIndex;
        const name = feature.properties.ProducerName;
        return (
          <span key={index} data-testid={`map-plot-${index + 1}`} data-area={areas?.[index] ?? ''} data-problems={(keyed[index] ?? []).length}>
            {typeof name === 'string' ? name : index + 1}
          </span>
        );
      })}
    </div>
  );
}
