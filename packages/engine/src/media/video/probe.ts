import { open } from 'node:fs/promises';
import { MEDIA_FORMATS, ffprobe, probeInput } from './ffmpeg.js';

/** What a media file really holds, read by ffprobe (never copied from the request that made it). */
export interface MediaProbe {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  videoCodec: string;
  hasAudio: boolean;
  formatName: string;
  /** The demuxer to open the file with again (mediaInput): the first of formatName's names, one of MEDIA_FORMATS. */
  format: string;
}

const ratio = (value: string | undefined): number => {
  const [n, d] = (value ?? '0/1').split('/').map(Number);
  return d ? n! / d : (n ?? 0);
};

/**
 * Throws when the file is not in one of MEDIA_FORMATS (a MediaToolError: ffprobe refused it) or has no
 * decodable video stream.
 */
export async function probeMedia(file: string, signal?: AbortSignal): Promise<MediaProbe> {
  const { stdout } = await ffprobe(['-print_format', 'json', '-show_format', '-show_streams', ...probeInput(file)], signal);
  const info = JSON.parse(stdout) as {
    streams?: Array<{
      codec_type?: string;
      codec_name?: string;
      width?: number;
      height?: number;
      avg_frame_rate?: string;
      r_frame_rate?: string;
      duration?: string;
    }>;
    format?: { duration?: string; format_name?: string };
  };
  const video = info.streams?.find((s) => s.codec_type === 'video' && s.width && s.height);
  if (!video) throw new Error('the file holds no video stream');
  const duration = Number(info.format?.duration ?? video.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new Error('the file has no measurable duration');
  const fps = ratio(video.avg_frame_rate) || ratio(video.r_frame_rate);
  const formatName = info.format?.format_name ?? 'unknown';
  const format = formatName.split(',')[0]!;
  if (!MEDIA_FORMATS.includes(format)) throw new Error(`the file was read as ${formatName}, not a container media is opened as`);
  return {
    durationSeconds: Math.round(duration * 1000) / 1000,
    width: video.width!,
    height: video.height!,
    fps: Math.round(fps * 1000) / 1000,
    videoCodec: video.codec_name ?? 'unknown',
    hasAudio: info.streams?.some((s) => s.codec_type === 'audio') ?? false,
    formatName,
    format,
  };
}

/** Formats that name other files, by how their text begins. */
const REFERENCE_FORMATS: Array<[RegExp, string]> = [
  [/^(\uFEFF)?#EXTM3U/, 'an HLS playlist (m3u8)'],
  [/^(\uFEFF)?ffconcat version/, 'an ffmpeg concat script'],
  [/^(\uFEFF)?\s*(<\?xml[^>]*>\s*)?<MPD[\s>]/, 'a DASH manifest (mpd)'],
];

/**
 * What a file that is not in MEDIA_FORMATS is, when it is one of the kinds that name other files: read
 * from its first bytes here, never by handing it to ffmpeg. For messages only; undefined when not one of them.
 */
export async function referenceFormatOf(file: string): Promise<string | undefined> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    const head = buffer.toString('utf8', 0, bytesRead);
    return REFERENCE_FORMATS.find(([pattern]) => pattern.test(head))?.[1];
  } finally {
    await handle.close();
  }
}
