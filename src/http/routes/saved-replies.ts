import type { SavedReplyService } from '../../domain/saved-replies.js';
import { NewSavedReply, SavedReply, SavedReplyChanges } from '../../contract/saved-replies.js';
import { collectionRoutes } from './workspace-collection.js';

/** Saved replies: canned answers members insert in a reply by typing `/` and the shortcut. */
export const savedReplyRoutes = (savedReplies: SavedReplyService) =>
  collectionRoutes({
    path: '/saved-replies',
    tags: ['saved replies'],
    who:
      'Any member of the workspace (owner, admin or member), in person or with a key one of them made: saved replies are ' +
      'the team’s shared snippets.',
    taken: 'A shortcut taken in the workspace is 409 CONFLICT.',
    schemas: { item: SavedReply, create: NewSavedReply, update: SavedReplyChanges },
    summaries: {
      list: 'List the workspace’s saved replies, by shortcut',
      create: 'Save a reply under a shortcut',
      update: 'Change a saved reply’s shortcut, title or text',
      delete: 'Delete a saved reply',
    },
    service: savedReplies,
  });
