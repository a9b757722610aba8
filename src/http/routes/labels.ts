import type { LabelService } from '../../domain/labels.js';
import { Label, LabelChanges, NewLabel } from '../../contract/labels.js';
import { collectionRoutes } from './workspace-collection.js';

/** The workspace's labels; putting them on conversations is in the conversation routes. */
export const labelRoutes = (labels: LabelService) =>
  collectionRoutes({
    path: '/labels',
    tags: ['labels'],
    who: 'Any member of the workspace (owner, admin or member), in person or with a key one of them made.',
    taken: 'A name taken in the workspace is 409 CONFLICT; without a colour a new label is grey.',
    schemas: { item: Label, create: NewLabel, update: LabelChanges },
    summaries: {
      list: 'List the workspace’s labels, by name',
      create: 'Make a label',
      update: 'Rename or recolour a label',
      delete: 'Delete a label; it leaves every conversation it was on',
    },
    service: labels,
  });
