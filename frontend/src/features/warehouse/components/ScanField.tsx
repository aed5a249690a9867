import { CameraOutlined, CloudUploadOutlined } from '@ant-design/icons';
import { Badge, Button, Input, type InputRef, Space, Spin } from 'antd';
import { Suspense, lazy, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import styles from './warehouse.module.css';

const CameraScanner = lazy(() => import('./CameraScanner'));

interface Props {
  label: string;
  onScan: (code: string) => void;
  busy?: boolean;
  pending?: number;
  testId?: string;
}

/**
 * The scan field comes first on every warehouse page: a hardware scanner types the code and Enter into
 * the focused field; the camera button opens the phone's camera instead. The field takes focus back
 * after each scan so the next one can follow.
 */
export function ScanField({ label, onScan, busy = false, pending = 0, testId = 'scan-field' }: Props) {
  const { t } = useTranslation('warehouse');
  const [value, setValue] = useState('');
  const [camera, setCamera] = useState(false);
  const input = useRef<InputRef>(null);

  useEffect(() => {
    input.current?.focus();
  }, [busy]);

  const submit = (raw: string) => {
    const code = raw.trim();
    setValue('');
    if (code) onScan(code);
    input.current?.focus();
  };
  const fromCamera = useCallback((code: string) => onScan(code), [onScan]);

  return (
    <div className={styles.scan}>
      <Space.Compact block>
        <Input
          ref={input}
          size="large"
          autoFocus
          autoComplete="off"
          autoCapitalize="characters"
          enterKeyHint="go"
          aria-label={label}
          placeholder={label}
          value={value}
          onChange={(event) => setValue(event.target.value)}
          onPressEnter={() => submit(value)}
          suffix={busy ? <Spin size="small" /> : null}
          data-testid={testId}
        />
        <Button size="large" icon={<CameraOutlined />} aria-label={t('scan.openCamera')} onClick={() => setCamera((open) => !open)} />
      </Space.Compact>
      {pending ? (
        <Badge status="warning" className={styles.pending} text={<><CloudUploadOutlined /> {t('queue.pending', { count: pending })}</>} data-testid="scan-pending" />
      ) : null}
      {camera ? (
        <Suspense fallback={<Spin />}>
          <CameraScanner onCode={fromCamera} onClose={() => setCamera(false)} />
        </Suspense>
      ) : null}
    </div>
  );
}
