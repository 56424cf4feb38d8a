// Shared look for Dialog and ConfirmDialog; internal, not exported from index.
export const overlayClasses = "fixed inset-0 z-50 bg-black/40";

export const panelClasses =
  "fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[calc(100%-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 " +
  "overflow-y-auto rounded-xl border border-line bg-surface p-6 shadow-raised focus:outline-none";

export const titleClasses = "text-lg font-semibold tracking-tight text-ink";

export const descriptionClasses = "mt-1.5 text-sm text-muted";
