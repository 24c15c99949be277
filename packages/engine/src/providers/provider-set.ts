import type { ClassifierProvider, ImageProvider, JobKind, JobProviders, ProviderSet, TextProvider, VideoProvider } from './types.js';

/** The kinds of call a provider answers at once, each with its own interface. */
interface CallProviders {
  text: TextProvider;
  image: ImageProvider;
  video: VideoProvider;
  classifier: ClassifierProvider;
}
type CallKind = keyof CallProviders;

type CallLayer = { [K in CallKind]?: (provider: CallProviders[K], name: string) => CallProviders[K] };

/** What a layer changes of each kind of call; a kind it leaves out passes through as it is. */
export type ProviderLayer = CallLayer & {
  jobs?<K extends JobKind>(provider: JobProviders[K], kind: K, name: string): JobProviders[K];
};

/**
 * The providers seen through one layer (capacity, call keys, durable jobs, fallbacks): each layer says only
 * what it changes, and the rest (webhooks, batches, the kinds it leaves alone) passes through untouched.
 */
export function layered(providers: ProviderSet, layer: ProviderLayer): ProviderSet {
  const calls: CallLayer = layer;
  const through =
    <K extends CallKind>(kind: K) =>
    (name: string): CallProviders[K] | undefined => {
      const p = providers[kind](name) as CallProviders[K] | undefined;
      const change: CallLayer[K] = calls[kind];
      return p && change ? change(p, name) : p;
    };
  return {
    text: through('text'),
    image: through('image'),
    video: through('video'),
    classifier: through('classifier'),
    jobs(kind, name) {
      const p = providers.jobs(kind, name);
      return p && layer.jobs ? layer.jobs(p, kind, name) : p;
    },
    webhooks: (name) => providers.webhooks(name),
    batches: (name) => providers.batches(name),
  };
}
