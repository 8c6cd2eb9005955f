// SPDX-License-Identifier: MIT
/* A probe's rounds: how many, and the memory they share; see rounds.h. */
#include <errno.h>
#include <sys/mman.h>

#include "progress.h"
#include "rounds.h"

int rounds_of(const struct probe *p, const struct probe_ctx *ctx, int want)
{
	int64_t fit;

	if (want <= 1 || p->rounds.min_round_ms <= 0)
		return 1;
	fit = progress_expect_ms(p, ctx) / p->rounds.min_round_ms;
	return fit < 1 ? 1 : fit < want ? (int)fit : want;
}

int rounds_state_open(const struct probe *p, struct probe_ctx *ctx)
{
	size_t len = p->rounds.state_bytes ? p->rounds.state_bytes(ctx) : 0;
	void *m;

	ctx->state = 0;
	ctx->state_len = 0;
	if (!len)
		return 0;
	/* MAP_ANONYMOUS: zero-filled (mmap(2)); MAP_SHARED: the children's writes are ours */
	m = mmap(0, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -errno;
	ctx->state = m;
	ctx->state_len = len;
	return 0;
}

void rounds_state_close(struct probe_ctx *ctx)
{
	if (ctx->state)
		munmap(ctx->state, ctx->state_len);
	ctx->state = 0;
	ctx->state_len = 0;
}

int rounds_limit_s(int limit_s, int rounds)
{
	int share = rounds > 1 ? (limit_s + rounds - 1) / rounds : limit_s;

	if (share < ROUNDS_LIMIT_MIN_S)
		share = limit_s < ROUNDS_LIMIT_MIN_S ? limit_s : ROUNDS_LIMIT_MIN_S;
	return share;
}
