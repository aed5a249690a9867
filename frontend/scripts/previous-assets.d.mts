export function save(dist: string, keep: string): string[];
export function restore(dist: string, keep: string): string[];
