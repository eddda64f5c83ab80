/**
 * Step timing and profiling: {@link dev.brisk.profile.StepTimeline} times every step's phases and input wait,
 * {@link dev.brisk.profile.Profiler} records the kernel calls of a {@link dev.brisk.profile.ProfileWindow}, and
 * {@link dev.brisk.profile.Profile} is the result, as a text summary or Chrome-trace JSON.
 *
 * <p>Public API; the layer above {@code io}.
 */
package dev.brisk.profile;
