/** Participants: the visitors who write and the contacts they turn out to be. */

export interface ContactRecord {
  id: string;
  workspaceId: string;
  firstName: string | null;
  lastName: string | null;
  /** Lower case; unique in the workspace. */
  email: string | null;
  phoneNumber: string | null;
  createdAt: string;
  updatedAt: string;
}

export type ContactFields = Partial<Pick<ContactRecord, 'firstName' | 'lastName' | 'email' | 'phoneNumber'>>;

/** Whoever writes from a widget or channel; known by an id the client keeps, a contact once they say who they are. */
export interface VisitorRecord {
  id: string;
  workspaceId: string;
  contactId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A workspace's visitors and contacts. */
export interface ParticipantStore {
  /**
   * The workspace's visitor with this id, created when the workspace has none (ids are unique per
   * workspace), linked to `contactId` when given.
   */
  ensureVisitor(workspaceId: string, id: string, contactId: string | null, at: string): Promise<VisitorRecord>;
  visitors(workspaceId: string, ids: readonly string[]): Promise<VisitorRecord[]>;
  /**
   * The contact with this e-mail in the workspace updated with the fields given, else a new contact
   * `id`; in one statement, so two requests cannot create the same e-mail twice.
   */
  upsertContact(workspaceId: string, id: string, fields: ContactFields, at: string): Promise<ContactRecord>;
  contacts(workspaceId: string, ids: readonly string[]): Promise<ContactRecord[]>;
}
