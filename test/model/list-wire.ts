import { LISTS_PATH, listPathOf } from '../../src/model/resources.ts';
import type { ListRequestSpec } from './list-spec.ts';
import type { ListsModel } from './lists-model.ts';
import type { Condition } from './spec.ts';
import { addressed } from './targets.ts';
import type { WireRequest } from './wire.ts';
import { conditionHeader, header, sent } from './wire-parts.ts';

/** A list command made concrete: its conditions name the title's ETags the model knows. */
export function listWireRequest(lists: ListsModel, spec: ListRequestSpec): WireRequest {
  const plain = { spec, headers: {}, chunked: false };
  switch (spec.op) {
    case 'create-list':
      return {
        ...plain,
        method: 'POST',
        path: LISTS_PATH,
        ...(spec.send && sent(lists.limits, spec.send)),
      };
    case 'wrong-method-on-lists':
      return { ...plain, method: spec.method, path: LISTS_PATH };
  }
  const at = addressed(lists, spec);
  const onList = { ...plain, listId: at.id, path: listPathOf(at.id) };
  // A list that names none may still have been one: its ETags are those it had.
  const titleCondition = (name: string, condition: Condition) =>
    header(
      name,
      conditionHeader(
        condition,
        at.known?.titleEtag,
        () => at.known?.staleTitleEtag() ?? '"never-issued"',
      ),
    );
  switch (spec.op) {
    case 'read-list':
      return {
        ...onList,
        method: spec.method,
        headers: titleCondition('if-none-match', spec.ifNoneMatch),
      };
    case 'rename-list': {
      const body = sent(lists.limits, spec.send, at.id);
      const headers = { ...titleCondition('if-match', spec.ifMatch), ...body.headers };
      return { ...onList, method: 'PUT', ...body, headers };
    }
    case 'delete-list':
      return { ...onList, method: 'DELETE', headers: titleCondition('if-match', spec.ifMatch) };
    case 'wrong-method-on-list':
      return { ...onList, method: spec.method };
  }
}
