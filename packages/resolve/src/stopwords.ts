// Words too common to say what a proposal is about: never query terms, never counted in the title
// similarity. "and", "or", "not" and "near" are also FTS5 operators; the db quotes every term
// anyway, but leaving them out means no term can even look like one.

export const STOPWORDS: ReadonlySet<string> = new Set(
  `
  a about after all also an and any are as at be been but by can could do does for from had has
  have he her his how i if in into is it its may more must near no not of on or our she should so
  some such than that the their them then there these they this those to up us use was we were
  what when where which who will with would you your
  `
    .trim()
    .split(/\s+/),
);
