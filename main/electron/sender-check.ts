// IPC is answered only for our own window showing our own renderer: a frame that navigated
// elsewhere, a subframe, or any other webContents gets nothing.

export interface RendererLocation {
  /** file:// URL of the built renderer's index.html. */
  fileUrl: string;
  /** electron-vite's dev server, in development only. */
  devServerUrl?: string;
}

export interface SenderFacts {
  isOwnWindow: boolean;
  isMainFrame: boolean;
  frameUrl: string | undefined;
}

export function isTrustedSender(
  { isOwnWindow, isMainFrame, frameUrl }: SenderFacts,
  where: RendererLocation,
): boolean {
  if (!isOwnWindow || !isMainFrame || !frameUrl) return false;
  let url: URL;
  try {
    url = new URL(frameUrl);
  } catch {
    return false;
  }
  if (url.protocol === 'file:') {
    const expected = new URL(where.fileUrl);
    return expected.protocol === 'file:' && url.pathname === expected.pathname && url.host === expected.host;
  }
  if (where.devServerUrl && (url.protocol === 'http:' || url.protocol === 'https:')) {
    return url.origin === new URL(where.devServerUrl).origin;
  }
  return false;
}
