/**
 * The report as a chart (Apache ECharts, only the charts used; this module is lazy-loaded by the page).
 * The parent gets a handle to export the chart as PNG.
 */
import { theme } from 'antd';
import { BarChart, LineChart, PieChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import type { ChartKind } from '../api/reportLab';
import type { ChartData } from './reportModel';

echarts.use([BarChart, LineChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export interface ChartHandle {
  /** The chart as a PNG data URL (on the page's background colour). */
  toPng: () => string | null;
}

interface Props {
  kind: Exclude<ChartKind, 'table'>;
  data: ChartData;
  title: string;
  ref?: Ref<ChartHandle>;
}

export default function ReportChart({ kind, data, title, ref }: Props) {
  const { token } = theme.useToken();
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);

  useImperativeHandle(ref, () => ({
    toPng: () => chart.current?.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: token.colorBgContainer }) ?? null,
  }));

  useEffect(() => {
    if (!element.current) return undefined;
    const instance = echarts.init(element.current);
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    const instance = chart.current;
    if (!instance) return;
    const text = { color: token.colorText, fontFamily: token.fontFamily };
    const axis = { axisLabel: { color: token.colorTextSecondary }, axisLine: { lineStyle: { color: token.colorBorder } } };
    const base = {
      textStyle: text,
      backgroundColor: 'transparent',
      tooltip: { trigger: kind === 'pie' ? 'item' : 'axis', confine: true },
      legend: { type: 'scroll', top: 0, textStyle: { color: token.colorText } },
      aria: { enabled: true, label: { description: title } },
    };
    if (kind === 'pie') {
      const first = data.series[0];
      instance.setOption(
        {
          ...base,
          series: [
            {
              type: 'pie',
              name: first?.name ?? '',
              radius: ['35%', '70%'],
              top: 30,
              data: data.categories.map((name, i) => ({ name, value: first?.data[i] ?? 0 })),
              label: { color: token.colorText },
            },
          ],
        },
        true,
      );
      return;
    }
    instance.setOption(
      {
        ...base,
        grid: { left: 8, right: 16, top: 40, bottom: 8, containLabel: true },
        xAxis: { type: 'category', data: data.categories, ...axis, axisLabel: { ...axis.axisLabel, hideOverlap: true } },
        yAxis: { type: 'value', ...axis, splitLine: { lineStyle: { color: token.colorBorderSecondary } } },
        series: data.series.map((s) => ({
          type: kind === 'line' ? 'line' : 'bar',
          name: s.name,
          data: s.data,
          stack: kind === 'stacked' ? 'total' : undefined,
        })),
      },
      true,
    );
  }, [kind, data, title, token]);

  return <div ref={element} role="img" aria-label={title} style={{ width: '100%', height: 360 }} />;
}
