/**
 * The phone camera as a QR reader: ZXing compiled to WebAssembly (zxing-wasm), loaded only when the
 * camera is opened; its .wasm file is bundled by Vite (`?url`), nothing is fetched from elsewhere.
 */
import { Alert, Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import wasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';
import styles from './warehouse.module.css';

prepareZXingModule({
  overrides: {
    locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path),
  },
});

interface Props {
  onCode: (code: string) => void;
  onClose: () => void;
}

export default function CameraScanner({ onCode, onClose }: Props) {
  const { t } = useTranslation('warehouse');
  const video = useRef<HTMLVideoElement>(null);
  const [failed, setFailed] = useState(false);
  const last = useRef<{ code: string; at: number } | null>(null);

  useEffect(() => {
    let stream: MediaStream | null = null;
    let timer: number | undefined;
    let stopped = false;
    const canvas = document.createElement('canvas');
    const start = async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      } catch {
        setFailed(true);
        return;
      }
      if (stopped || !video.current) return;
      video.current.srcObject = stream;
      await video.current.play().catch(() => undefined);
      const tick = async () => {
        const element = video.current;
        if (stopped || !element) return;
        if (element.videoWidth) {
          canvas.width = element.videoWidth;
          canvas.height = element.videoHeight;
          const context = canvas.getContext('2d', { willReadFrequently: true });
          if (context) {
            context.drawImage(element, 0, 0);
            const results = await readBarcodes(context.getImageData(0, 0, canvas.width, canvas.height), {
              formats: ['QRCode'],
              maxNumberOfSymbols: 1,
            }).catch(() => []);
            const text = results[0]?.text;
            // The same code seen again within two seconds is the same scan, not a second one.
            if (text && !(last.current?.code === text && Date.now() - last.current.at < 2000)) {
              last.current = { code: text, at: Date.now() };
              onCode(text);
            }
          }
        }
        timer = window.setTimeout(() => void tick(), 250);
      };
      void tick();
    };
    void start();
    return () => {
      stopped = true;
      window.clearTimeout(timer);
      stream?.getTracks().forEach((track) => track.stop());
    };
  }, [onCode]);

  return (
    <div className={styles.camera}>
      {failed ? <Alert type="warning" showIcon title={t('scan.cameraFailed')} /> : <video ref={video} className={styles.video} muted playsInline aria-label={t('scan.camera')} />}
      <Button block onClick={onClose}>
        {t('scan.closeCamera')}
      </Button>
    </div>
  );
}
