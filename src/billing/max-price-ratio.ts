/** The highest price ratio a group may have, in millionths (1000×): a typo beyond it is refused, not charged. */
export const maxPriceRatioMillionths = 1_000_000_000;
