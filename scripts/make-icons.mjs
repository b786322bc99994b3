#!/usr/bin/env node
// Draws Corral's icons (a small fence: pointed posts and two rails) into build/ as PNGs, with
// nothing but node:zlib. Run `node scripts/make-icons.mjs` after changing the glyph; the output is
// committed so packaging needs no image tools.
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'build');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** RGBA pixels (Uint8Array, width*height*4) → PNG file bytes. */
function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The fence, in unit coordinates (0..1, y down). */
function inFence(x, y) {
  const posts = [0.2, 0.4, 0.6, 0.8];
  const halfWidth = 0.065;
  const tip = 0.16;
  const shoulder = 0.28;
  const bottom = 0.86;
  for (const cx of posts) {
    const dx = Math.abs(x - cx);
    if (y >= shoulder && y <= bottom && dx <= halfWidth) return true;
    if (y >= tip && y < shoulder && dx <= (halfWidth * (y - tip)) / (shoulder - tip)) return true;
  }
  const inRail = (top, h) => y >= top && y <= top + h && x >= 0.1 && x <= 0.9;
  return inRail(0.4, 0.09) || inRail(0.64, 0.09);
}

function inRoundedSquare(x, y, radius = 0.2) {
  const cx = Math.min(Math.max(x, radius), 1 - radius);
  const cy = Math.min(Math.max(y, radius), 1 - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** Renders layers (first match wins) with 4x4 supersampling for smooth edges. */
function render(size, layers, inset = 0) {
  const rgba = new Uint8Array(size * size * 4);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const u = (px + (sx + 0.5) / n) / size;
          const v = (py + (sy + 0.5) / n) / size;
          const fu = (u - inset) / (1 - 2 * inset);
          const fv = (v - inset) / (1 - 2 * inset);
          const layer = layers.find((l) => l.shape(u, v, fu, fv));
          if (!layer) continue;
          const [r, g, b, a] = layer.color;
          sum[0] += r * a;
          sum[1] += g * a;
          sum[2] += b * a;
          sum[3] += a;
        }
      }
      const i = (py * size + px) * 4;
      const alpha = sum[3] / (n * n);
      rgba[i + 3] = Math.round(alpha);
      if (sum[3] > 0) for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(sum[c] / sum[3]);
    }
  }
  return rgba;
}

const BLACK = [0, 0, 0, 255];
const BOARD = [244, 233, 208, 255];
const PASTURE = [47, 93, 58, 255];

const template = (size) => render(size, [{ color: BLACK, shape: (u, v) => inFence(u, v) }]);
const colour = (size) =>
  render(
    size,
    [
      { color: BOARD, shape: (u, v, fu, fv) => inRoundedSquare(u, v) && inFence(fu, fv) },
      { color: PASTURE, shape: (u, v) => inRoundedSquare(u, v) },
    ],
    0.08,
  );

const ICONS = [
  ['trayTemplate.png', 16, template],
  ['trayTemplate@2x.png', 32, template],
  ['tray.png', 32, colour],
  ['icon.png', 512, colour],
];

mkdirSync(OUT, { recursive: true });
for (const [name, size, draw] of ICONS) {
  writeFileSync(join(OUT, name), encodePng(size, size, draw(size)));
  console.log(`wrote build/${name} (${size}x${size})`);
}
