/** The rate every sound is resampled to and mixed at (and every output's sound is written at). */
export const MIX_RATE = 48_000;
