import { theme } from 'antd';

/** The product mark: a carton with a trace line, drawn in the theme's primary colour. */
export function AppLogo({ size = 28 }: { size?: number }) {
  const { token } = theme.useToken();
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" role="img" aria-hidden="true" focusable="false">
      <rect x="2" y="2" width="28" height="28" rx="7" fill={token.colorPrimary} />
      <path d="M9 12.5 16 9l7 3.5v8L16 24l-7-3.5z" fill="none" stroke={token.colorTextLightSolid} strokeWidth="1.8" strokeLinejoin="round" />
      <path d="M9 12.5 16 16l7-3.5M16 16v8" fill="none" stroke={token.colorTextLightSolid} strokeWidth="1.8" strokeLinejoin="round" />
    </svg>
  );
}
