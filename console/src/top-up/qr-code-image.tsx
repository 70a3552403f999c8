import { Center, Image, Loader } from '@mantine/core';
import { toString as renderQrSvg } from 'qrcode';
import { useEffect, useState } from 'react';

/** Renders a QR code's content as an SVG image (no canvas; the CSP allows data: images). */
export function QrCodeImage({ content, label, size = 220 }: { content: string; label: string; size?: number }) {
  const [source, setSource] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    void renderQrSvg(content, { type: 'svg', margin: 2, errorCorrectionLevel: 'M', color: { dark: '#000000', light: '#ffffff' } }).then((svg) => {
      if (current) setSource(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
    });
    return () => {
      current = false;
    };
  }, [content]);
  if (!source) return <Center w={size} h={size}><Loader size="sm" /></Center>;
  return <Image src={source} alt={label} w={size} h={size} radius="sm" />;
}
