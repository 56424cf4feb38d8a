import { randomInt } from "node:crypto";
import { isKnownWord, segmentWord } from "@/server/search/text";

// Random letter tags that keep search fixtures apart across suites and reruns.
// A purely random run of letters sometimes ends in a real word ("...zwe" -> "we"),
// which the ingest segmenter then cuts off the tag, and tests asserting a name's
// tokens or a correction fail one run in a few dozen. A tag is drawn again until
// the segmenter keeps it whole, alone and in front of words.

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");

/** Words the suites put after a tag ("${tag}bestpizzashop.com", "${tag}back.com"). */
const FOLLOWERS = ["bestpizzashop", "lawyer", "kitchen", "pizza", "new", "quoted", "back", "keep", "shop"];

/** No real word at the tag's end (the segmenter cuts "...fwbon" into "...fwb on"), and whole in front of words. */
const keptWhole = (tag: string) =>
  segmentWord(tag).length === 1 &&
  [2, 3, 4, 5, 6].every((n) => !isKnownWord(tag.slice(-n))) &&
  FOLLOWERS.every((word) => segmentWord(`${tag}${word}`)[0] === tag);

/** `prefix` and eight random letters that the search segmenter never splits. */
export function opaqueTag(prefix: string): string {
  for (;;) {
    const tag = `${prefix}${letters(8)}`;
    if (keptWhole(tag)) return tag;
  }
}
