import { ParleyError, invalid } from '../../errors.js';
import type { MemberRecord, Store } from '../../store/store.js';
import type { WorkspaceCaller } from '../callers.js';

/** The members who act in conversations (assignees, writers of replies, the "Mine" of the inbox), checked. */
export class ActingMembers {
  constructor(private readonly store: Store) {}

  /** The workspace's member `id`; a 400 naming `field` when there is none. */
  async member(workspaceId: string, id: string, field: string): Promise<MemberRecord> {
    const member = await this.store.members.find(workspaceId, id);
    if (member === undefined)
      throw invalid(`${field} is not a member of this workspace`, [{ field, message: 'must be a member id of this workspace' }]);
    return member;
  }

  /** The member a caller is: a member token's own; for an API key, the one it names (`memberId`), if any. */
  async callerMember(caller: WorkspaceCaller, memberId?: string): Promise<MemberRecord | undefined> {
    if (caller.kind === 'member') {
      const member = await this.store.members.findByUser(caller.workspaceId, caller.userId);
      if (member === undefined) throw new ParleyError('FORBIDDEN', 'You are no longer a member of this workspace');
      if (memberId !== undefined && memberId !== member.id) {
        throw invalid('memberId names another member', [{ field: 'memberId', message: 'a member writes as themself; leave it out' }]);
      }
      return member;
    }
    return memberId === undefined ? undefined : this.member(caller.workspaceId, memberId, 'memberId');
  }

  /** The member who writes for the caller: as {@link callerMember}, but an API key must name one. */
  async writer(caller: WorkspaceCaller, memberId: string | undefined): Promise<MemberRecord> {
    const member = await this.callerMember(caller, memberId);
    if (member === undefined) {
      throw invalid('An API key replies in the name of a member: say which with memberId', [
        { field: 'memberId', message: 'is required with an API key' },
      ]);
    }
    return member;
  }
}
