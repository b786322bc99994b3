import { useEffect, useState } from 'react';
import { useCorralApi } from '../store/store-context';

/** The configured grace period before SIGKILL, or null until (or unless) the core answers. */
export function useGraceMs(): number | null {
  const api = useCorralApi();
  const [graceMs, setGraceMs] = useState<number | null>(null);
  useEffect(() => {
    let live = true;
    api.request('settings:get', undefined).then(
      (settings) => {
        if (live) setGraceMs(settings.teardown.graceMs);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [api]);
  return graceMs;
}
