import { MISSING_ID } from '../support/api.ts';
import { NEVER_MADE_ID } from '../support/lists.ts';
import { isListRequest, type ListTarget } from './list-spec.ts';
import type { ListModel } from './list-model.ts';
import type { ListsModel } from './lists-model.ts';
import { TodoModel } from './model.ts';
import type { CommandSpec, Target } from './spec.ts';

/** A list as a command addresses it. */
export interface Addressed {
  /** The id in the path: `''` for the default list. */
  readonly id: string;
  /** The list the id names now; undefined when it names none. */
  readonly list: ListModel | undefined;
  /** The list the target picked, live or deleted: what its conditions are made from. */
  readonly known: ListModel | undefined;
  /** The items the command may pick from: the list's, a deleted list's as it was, or none. */
  readonly items: TodoModel;
}

export function pick<T>(from: readonly T[], index: number): T | undefined {
  return from.length === 0 ? undefined : from[index % from.length];
}

/** What an item command needs its list to hold: an item, a deleted one, or one elsewhere. */
type ItemNeed = 'item' | 'deleted-item' | 'elsewhere' | undefined;

function itemNeedOf(spec: CommandSpec): ItemNeed {
  if (spec.op === 'wrong-method-on-item') return 'item';
  switch ('target' in spec ? spec.target.kind : undefined) {
    case 'existing':
    case 'upper-case':
      return 'item';
    case 'deleted':
      return 'deleted-item';
    case 'elsewhere':
      return 'elsewhere';
    default:
      return undefined;
  }
}

function holds(lists: ListsModel, list: ListModel, need: ItemNeed): boolean {
  switch (need) {
    case 'item':
      return list.items.items.length > 0;
    case 'deleted-item':
      return list.items.deleted.length > 0;
    case 'elsewhere':
      return itemsElsewhere(lists, list.items).length > 0;
    case undefined:
      return true;
  }
}

/**
 * Whether the command can run now. One that picks a deleted list waits for one; so does a list
 * command that picks a named list, and an item command that needs an item (or a deleted one)
 * in a list that is there.
 */
export function canRun(lists: ListsModel, spec: CommandSpec): boolean {
  const target = 'list' in spec ? spec.list : undefined;
  const needsNamed =
    target?.kind === 'respelled' || (target?.kind === 'named' && isListRequest(spec));
  if (needsNamed && lists.named.length === 0) return false;
  if (target?.kind === 'deleted' && lists.deleted.length === 0) return false;
  const { list } = addressed(lists, spec);
  return list === undefined || holds(lists, list, itemNeedOf(spec));
}

/**
 * The list a command addresses. An item command's pick of a named list is among those that
 * hold what it needs; while none does, it is the default list, so that the command runs all
 * the same when that one does.
 */
export function addressed(lists: ListsModel, spec: CommandSpec): Addressed {
  const target = 'list' in spec ? spec.list : undefined;
  const known = knownList(lists, target, isListRequest(spec) ? 'list' : itemNeedOf(spec));
  const id = idOf(target, known);
  return { id, list: lists.find(id), known, items: known?.items ?? new TodoModel(lists.limits) };
}

/**
 * The list a pick names, live or deleted; the default list when there is no target. `need` is
 * what an item command needs of it, or `list` for a list command, which needs a named list.
 */
function knownList(
  lists: ListsModel,
  target: ListTarget | undefined,
  need: ItemNeed | 'list',
): ListModel | undefined {
  switch (target?.kind) {
    case undefined:
    case 'default':
      return lists.defaultList;
    case 'named': {
      if (need === 'list') return pick(lists.named, target.pick);
      const holding = lists.named.filter((list) => holds(lists, list, need));
      const fallback = holds(lists, lists.defaultList, need) ? lists.defaultList : undefined;
      return pick(holding, target.pick) ?? fallback ?? pick(lists.named, target.pick);
    }
    case 'respelled':
      return pick(lists.named, target.pick);
    case 'deleted':
      return pick(lists.deleted, target.pick);
    default:
      return undefined;
  }
}

function idOf(target: ListTarget | undefined, known: ListModel | undefined): string {
  switch (target?.kind) {
    case 'never-made':
    case 'malformed':
      return target.id;
    case 'respelled':
      return respelled(known?.id ?? NEVER_MADE_ID);
    default:
      return known?.id ?? NEVER_MADE_ID;
  }
}

/** base64url is case-sensitive: another letter case spells other bytes, so no list's id. */
function respelled(id: string): string {
  const index = id.search(/[A-Za-z]/);
  if (index === -1) return `${id}A`;
  const letter = id[index]!;
  const other = letter === letter.toUpperCase() ? letter.toLowerCase() : letter.toUpperCase();
  return id.slice(0, index) + other + id.slice(index + 1);
}

/** The item id `target` names in the list `at` addresses. */
export function itemIdOf(lists: ListsModel, at: Addressed, target: Target): string {
  const ids = at.items.items.map((todo) => todo.id);
  switch (target.kind) {
    case 'existing':
      return pick(ids, target.pick) ?? MISSING_ID;
    case 'deleted':
      return pick(at.items.deleted, target.pick) ?? MISSING_ID;
    case 'upper-case':
      return (pick(ids, target.pick) ?? MISSING_ID).toUpperCase();
    case 'elsewhere':
      return pick(itemsElsewhere(lists, at.items), target.pick) ?? MISSING_ID;
    case 'never-issued':
    case 'not-uuid':
      return target.id;
  }
}

/** The ids of the items of every list there is but `items`'s own. */
function itemsElsewhere(lists: ListsModel, items: TodoModel): string[] {
  return lists.live
    .filter((list) => list.items !== items)
    .flatMap((list) => list.items.items.map((todo) => todo.id));
}
