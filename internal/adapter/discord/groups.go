package discord

import (
	"context"
	"errors"
	"fmt"

	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"
)

// GroupOf is the server (guild) a channel belongs to, "" for a channel mom does not know.
func (a *Adapter) GroupOf(channelID string) string { return a.dir.guildOf(channelID) }

// AnyMember asks Discord whether one of userIDs is a member of a server (GET
// /guilds/{guild}/members/{user} for each in turn). It answers no only when Discord said
// Unknown Member for every one of them; when some could not be asked and none of the others
// is in the server, it returns the error.
func (a *Adapter) AnyMember(ctx context.Context, group string, userIDs []string) (bool, error) {
	guild, err := snowflake.Parse(group)
	if err != nil {
		return false, fmt.Errorf("%q is not a Discord server id", group)
	}
	members := rest.NewMembers(a.client)
	var errs []error
	for _, id := range userIDs {
		user, err := snowflake.Parse(id)
		if err != nil {
			errs = append(errs, fmt.Errorf("%q is not a Discord user id (admins are numeric ids)", id))
			continue
		}
		err = a.rate.Do(ctx, func() error {
			_, err := members.GetMember(guild, user, rest.WithCtx(ctx))
			return err
		})
		switch {
		case err == nil:
			return true, nil
		case !rest.IsJSONErrorCode(err, rest.JSONErrorCodeUnknownMember):
			errs = append(errs, fmt.Errorf("could not look up %s in server %s (GET /guilds/{guild}/members/{user}): %w", id, group, explain(err)))
		}
	}
	return false, errors.Join(errs...)
}

// Leave takes the bot out of a server (DELETE /users/@me/guilds/{guild}) and forgets its
// channels.
func (a *Adapter) Leave(ctx context.Context, group string) error {
	guild, err := snowflake.Parse(group)
	if err != nil {
		return fmt.Errorf("%q is not a Discord server id", group)
	}
	err = a.rate.Do(ctx, func() error {
		return rest.NewUsers(a.client).LeaveGuild(guild, rest.WithCtx(ctx))
	})
	if err != nil {
		return fmt.Errorf("could not leave server %s (DELETE /users/@me/guilds/{guild}): %w", group, explain(err))
	}
	a.dir.forgetGuild(group)
	return nil
}
