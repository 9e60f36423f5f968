/** A time of day as `HH:MM`, from 00:00 to 24:00 (24:00 = the end of the day, the next day's 00:00). */
export const TIME_OF_DAY = /^(?:([01]\d|2[0-3]):([0-5]\d)|(24):(00))$/;
