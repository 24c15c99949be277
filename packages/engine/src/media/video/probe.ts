import { ffprobe } from './ffmpeg';

/** What a media file really holds, read by ffprobe (never copied from the request that made it). */
export interface MediaProbe {
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  videoCodec: string;
  hasAudio: boolean;
  formatName: string;
}

const ratio = (value: string | undefined): number => {
  const [n, d] = (value ?? '0/1').split('/').map(Number);
  return d ? n! / d : (n ?? 0);
};

/** Throws when the file has no decodable video stream. */
export async function probeMedia(file: string, signal?: AbortSignal): Promise<MediaProbe> {
  const { stdout } = await ffprobe(['-print_format', 'json', '-show_format', '-show_streams', file], signal);
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
  return {
    durationSeconds: Math.round(duration * 1000) / 1000,
    width: video.width!,
    height: video.height!,
    fps: Math.round(fps * 1000) / 1000,
    videoCodec: video.codec_name ?? 'unknown',
    hasAudio: info.streams?.some((s) => s.codec_type === 'audio') ?? false,
    formatName: info.format?.format_name ?? 'unknown',
  };
}
