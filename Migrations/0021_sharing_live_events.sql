-- 0021_sharing_live_events: the shares' live events (issue 15), sent by 0020_live_events's
-- `live_row_changed` in the transaction of the change, ids only.
--
-- `shareChanged`, to the adult an entry is shared with: a share made, and every change of it
-- (seen, replied, unshared, its entry archived or restored). What they are sent is what they
-- still see of it (0012_sharing's policies): nothing once it is unshared or archived, or their
-- assignment to the author ended. `entryShareChanged`, to the author: their sharee saw it or
-- replied.

create trigger shares_live_sharee after insert or update on shares
    for each row execute function live_row_changed('shareChanged', 'sharee_id');

create trigger shares_live_author after update of seen_at, reply, replied_at on shares
    for each row execute function live_row_changed('entryShareChanged', 'author_id');
