// What `authsvc-api stubs` may do to the directory it is given, whatever the directory holds:
// read, write and delete regular files directly in it, by plain names, and nothing else. No
// symbolic link is followed (a link to a team's file is neither overwritten nor read, a
// dangling one creates nothing elsewhere), nothing that is not a regular file is opened (a
// FIFO would hang the command, a device never ends), a file is read only up to a bound, and
// a file is written as a new file renamed into place, so a hard link to a file outside
// stays as it was. Anything else is a StubsRefusal: one line naming the file and why.
import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, renameSync, rmSync, type Stats, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";

/** A file the command will not touch: its one-line reason, printed as it is. */
export class StubsRefusal extends Error {
  override name = "StubsRefusal";
}

// O_NOFOLLOW and O_NONBLOCK where the platform has them (not Windows, where lstat decides).
const noFollow = constants.O_NOFOLLOW ?? 0;
const nonBlocking = constants.O_NONBLOCK ?? 0;

/** What a regular file is instead, for a refusal. */
function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return "a symbolic link";
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a FIFO";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

/** A file directly in `dir`: a plain name, never a path. */
function pathOf(dir: string, name: string): string {
  if (!/^[\w$.-]+$/.test(name) || name === "." || name === "..")
    throw new StubsRefusal(`${JSON.stringify(name)} is not a plain file name: stubs touches only files directly in its directory`);
  return join(dir, name);
}

function refuseUnlessRegular(dir: string, name: string, what: string): boolean {
  let stats;
  try {
    stats = lstatSync(pathOf(dir, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  if (!stats.isFile()) throw new StubsRefusal(`${join(dir, name)} is ${kindOf(stats)}, not a regular file: stubs ${what} only regular files in its directory`);
  return true;
}

/** The text of `name`, undefined when there is none, `null` when it is larger than `maxBytes` (not read). */
export function readEntry(dir: string, name: string, maxBytes: number): string | undefined | null {
  if (!refuseUnlessRegular(dir, name, "reads")) return undefined;
  // Opened without following a link and without waiting on a FIFO: the entry may have changed since lstat.
  const fd = openSync(pathOf(dir, name), constants.O_RDONLY | noFollow | nonBlocking);
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new StubsRefusal(`${join(dir, name)} is ${kindOf(stats)}, not a regular file: stubs reads only regular files in its directory`);
    if (stats.size > maxBytes) return null;
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    for (let read = -1; read !== 0 && length <= maxBytes; length += read) read = readSync(fd, buffer, length, buffer.byteLength - length, null);
    return length > maxBytes ? null : buffer.toString("utf8", 0, length);
  } finally {
    closeSync(fd);
  }
}

/** Refuses, before anything is written, when `name` exists and is not a regular file. */
export const checkWritable = (dir: string, name: string): void => void refuseUnlessRegular(dir, name, "writes");

/** Writes `content` to `name`: a new file beside it, renamed over it (which replaces a link or a file, never writes through one). */
export function writeEntry(dir: string, name: string, content: string): void {
  checkWritable(dir, name);
  const temporary = pathOf(dir, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
  const fd = openSync(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | noFollow, 0o666);
  try {
    const bytes = Buffer.from(content);
    for (let written = 0; written < bytes.byteLength; ) written += writeSync(fd, bytes, written);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temporary, pathOf(dir, name));
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** Deletes `name` if it is a regular file (unlink removes a link itself, never what it names). */
export function deleteEntry(dir: string, name: string): void {
  if (refuseUnlessRegular(dir, name, "deletes")) unlinkSync(pathOf(dir, name));
}
