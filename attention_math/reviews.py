"""Short film reviews the project wrote for the sentiment-attention scene, each marked positive or negative.

Written for this project (not taken from any data set): words that carry sentiment
("wonderful", "boring"), words that carry none ("the", "plot"), and negations that turn
a word around ("not good", "never boring"). ``+`` marks a positive review, ``-`` a
negative one. The first lines were written one by one; the later ones say each sentiment
word again in a plain, a paired and a negated frame, so that every such word is seen
several times and both ways round. :data:`SHOWCASE` reviews are never trained on: the scene shows the
learned weights on them. :func:`load_reviews` parses and checks both lists.
"""

from __future__ import annotations

import re

__all__ = ["REVIEWS", "SENTIMENT_WORDS", "SHOWCASE", "load_reviews", "words_of"]

REVIEWS = """
+ the film was wonderful
+ a wonderful story
+ the acting was great
+ great acting and a great cast
+ the plot was clever
+ a clever and funny script
+ the music was beautiful
+ a beautiful film
+ i loved the ending
+ i loved this movie
+ we loved every minute
+ i enjoyed the film
+ we really enjoyed it
+ the cast was superb
+ a superb movie
+ the story was moving
+ a moving and beautiful ending
+ the dialogue was sharp and funny
+ the characters were charming
+ a charming little film
+ the director did a brilliant job
+ a brilliant plot
+ the movie was fun
+ such fun from start to end
+ the scenes were gripping
+ a gripping story
+ the script was excellent
+ excellent acting
+ the ending was perfect
+ a perfect cast
+ it was a delight
+ the film was a delight to watch
+ the story was fresh
+ a fresh and clever movie
+ the acting felt warm and real
+ warm and funny
+ the music was lovely
+ a lovely film
+ the first half was great
+ the second half was wonderful
+ the plot was good
+ a good movie
+ the movie was really good
+ the cast was very good
+ it was quite good
+ the film was so good
+ good acting and a good story
+ i liked the characters
+ we liked the music
+ i liked it a lot
+ the ending was strong
+ a strong cast
+ the story was touching
+ a touching film
+ the scenes looked beautiful
+ the movie looked great
+ the characters felt real
+ the film felt fresh
+ it was worth every minute
+ worth the two hours
+ the jokes were funny
+ a funny movie
+ the film is funny and smart
+ a smart script
+ the acting is superb
+ the story is wonderful
+ it is a great film
+ this is a good movie
+ this film is brilliant
+ the plot is gripping
+ the film was not bad
+ the acting was not bad at all
+ not bad at all
+ the plot was never boring
+ never boring
+ it was never dull
+ the movie was not dull
+ the ending was not predictable
+ the story was not slow
+ the script was not weak
+ i was not disappointed
+ we were never bored
+ not a bad film
+ not a dull minute
+ there was nothing boring about it
+ nothing was dull
+ the cast was not bad
+ the music was not awful
+ hardly a dull moment
+ the jokes were never silly
+ the first half was slow but the ending was great
+ the plot was simple but the acting was superb
+ the start was dull but the rest was brilliant
+ the music was loud but the story was wonderful
+ it was long but worth it
+ the film was long but never boring
+ a slow start but a great ending
+ the cast was young but very good
+ the script was simple but clever
+ the movie was quiet but moving
+ a great movie with a clever plot
+ a lovely story with great music
- the film was awful
- an awful story
- the acting was terrible
- terrible acting and a terrible cast
- the plot was boring
- a boring and silly script
- the music was annoying
- an annoying film
- i hated the ending
- i hated this movie
- we hated every minute
- i disliked the film
- we really disliked it
- the cast was weak
- a weak movie
- the story was dull
- a dull and slow ending
- the dialogue was flat and silly
- the characters were bland
- a bland little film
- the director did a poor job
- a poor plot
- the movie was a mess
- such a mess from start to end
- the scenes were tedious
- a tedious story
- the script was clumsy
- clumsy acting
- the ending was predictable
- a predictable cast
- it was a disaster
- the film was a chore to watch
- the story was stale
- a stale and silly movie
- the acting felt cold and fake
- cold and slow
- the music was painful
- a painful film
- the first half was dull
- the second half was awful
- the plot was bad
- a bad movie
- the movie was really bad
- the cast was very bad
- it was quite bad
- the film was so bad
- bad acting and a bad story
- i was bored by the characters
- we were bored by the music
- i was bored a lot
- the ending was weak
- a weak cast
- the story was silly
- a silly film
- the scenes looked cheap
- the movie looked cheap
- the characters felt fake
- the film felt stale
- it was a waste of two hours
- a waste of time
- the jokes were flat
- a flat movie
- the film is slow and dull
- a dull script
- the acting is terrible
- the story is boring
- it is an awful film
- this is a bad movie
- this film is a mess
- the plot is predictable
- the film was not good
- the acting was not good at all
- not good at all
- the plot was never funny
- never funny
- it was never clever
- the movie was not fun
- the ending was not moving
- the story was not fresh
- the script was not smart
- i was not impressed
- we were never moved
- not a good film
- not a single good scene
- there was nothing good about it
- nothing was funny
- the cast was not great
- the music was not lovely
- hardly a funny moment
- the jokes were never funny
- the first half was great but the ending was awful
- the plot was clever but the acting was terrible
- the start was fun but the rest was boring
- the music was lovely but the story was dull
- it was short but still boring
- the film was short but never good
- a great start but a bad ending
- the cast was famous but very weak
- the script was ambitious but clumsy
- the movie was pretty but empty
- a weak film with a silly plot
- a dull story with flat jokes
+ the cast was good
+ a good plot
+ the scenes were good and wonderful
- the movie was not good
+ the cast was great
+ a great film
+ the jokes were great and funny
- the film was not great
+ the ending was wonderful
+ a wonderful dialogue
+ the characters were wonderful and moving
- the movie was never wonderful
+ the film was excellent
+ an excellent movie
+ the characters were excellent and warm
- the film was never excellent
+ the film was brilliant
+ a brilliant acting
+ the characters were brilliant and strong
- the plot was never brilliant
+ the ending was lovely
+ a lovely plot
+ the jokes were lovely and excellent
- the dialogue was never lovely
+ the script was fun
+ a fun plot
+ the characters were fun and warm
- the dialogue was not fun
+ the cast was funny
+ the jokes were funny and wonderful
- the dialogue was not funny
+ the dialogue was moving
+ a moving acting
+ the scenes were moving and strong
- the ending was never moving
+ a beautiful dialogue
+ the scenes were beautiful and charming
- the acting was not beautiful
+ the acting was charming
+ a charming movie
+ the jokes were charming and beautiful
- the script was never charming
+ the cast was clever
+ a clever music
+ the scenes were clever and wonderful
- the movie was never clever
+ the plot was superb
+ a superb cast
+ the characters were superb and smart
- the ending was not superb
+ the movie was gripping
+ a gripping script
+ the jokes were gripping and charming
- the cast was never gripping
+ the dialogue was fresh
+ a fresh music
+ the jokes were fresh and touching
- the movie was not fresh
+ a touching music
+ the jokes were touching and wonderful
- the film was never touching
+ the dialogue was smart
+ a smart music
+ the scenes were smart and superb
- the cast was not smart
+ the music was perfect
+ the characters were perfect and excellent
- the music was not perfect
+ the acting was strong
+ a strong story
+ the characters were strong and funny
- the ending was never strong
+ the music was warm
+ a warm movie
+ the characters were warm and fresh
- the ending was never warm
- a bad ending
- the jokes were bad and silly
+ the ending was never bad
- the ending was awful
- an awful acting
- the characters were awful and boring
+ the plot was not awful
- a terrible dialogue
- the characters were terrible and annoying
+ the dialogue was not terrible
- the story was boring
- a boring dialogue
- the characters were boring and poor
+ the ending was never boring
- the dialogue was dull
- a dull cast
- the characters were dull and cheap
+ the dialogue was not dull
- the music was poor
- a poor script
- the scenes were poor and clumsy
+ the ending was never poor
- the movie was weak
- a weak music
- the jokes were weak and clumsy
+ the film was not weak
- the movie was slow
- a slow acting
- the scenes were slow and poor
+ the movie was never slow
- the dialogue was predictable
- a predictable film
- the characters were predictable and bad
+ the dialogue was not predictable
- the script was silly
- a silly movie
- the scenes were silly and bad
+ the movie was not silly
- the dialogue was bland
- a bland ending
- the characters were bland and predictable
+ the cast was never bland
- the music was tedious
- a tedious movie
- the characters were tedious and annoying
+ the music was never tedious
- the music was flat
- a flat story
- the characters were flat and dull
+ the movie was never flat
- the story was clumsy
- a clumsy music
- the jokes were clumsy and poor
+ the script was not clumsy
- the acting was stale
- a stale script
- the scenes were stale and dull
+ the script was not stale
- the script was painful
- a painful story
- the jokes were painful and terrible
+ the story was never painful
- the plot was annoying
- an annoying cast
- the characters were annoying and fake
+ the script was never annoying
- the acting was cheap
- a cheap dialogue
- the characters were cheap and flat
+ the acting was not cheap
- the script was fake
- a fake music
- the scenes were fake and bad
+ the film was never fake
- the music was empty
- an empty story
- the characters were empty and tedious
+ the music was never empty
"""

SHOWCASE = """
+ the story was wonderful and the cast was great
- the plot was dull and the acting was awful
+ a clever film with a beautiful ending
- a boring movie with a predictable ending
- the film was not funny
+ the movie was not bad
+ the ending was never dull
- the acting was not great
"""
"""Reviews never trained on: the scene shows the learned weights on these, negations among them."""

SENTIMENT_WORDS = frozenset(
    """
    wonderful great good clever funny fun beautiful lovely loved liked enjoyed superb moving moved charming brilliant
    gripping excellent perfect delight fresh warm strong touching sharp smart impressed
    awful terrible bad annoying hated disliked dull bland poor tedious clumsy disaster stale silly painful bored
    boring weak cheap flat predictable slow empty mess chore waste fake cold disappointed
    """.split()
)
"""Words that carry sentiment on their own, listed by hand with the reviews (the model never sees this list).

Left out: words whose sentiment depends on the sentence ("real", "worth", "pretty", "loud",
"quiet", "long", "short", "simple", "famous", "ambitious") and intensifiers ("really", "so").
The scene counts how often a review's most weighted word is one of these.
"""

_WORD = re.compile(r"[a-z]+")
_LINE = re.compile(r"^([+-]) ([a-z]+(?: [a-z]+)*)$")


def words_of(text: str) -> tuple[str, ...]:
    """A sentence as the classifier reads it: lower-case words of letters only, punctuation dropped."""
    return tuple(_WORD.findall(text.lower()))


def _parse(block: str, name: str) -> tuple[tuple[tuple[str, ...], int], ...]:
    rows = []
    for number, line in enumerate(block.strip().splitlines(), start=1):
        match = _LINE.match(line.strip())
        if not match:
            raise ValueError(f"{name} line {number} is not '+ words' or '- words': {line!r}")
        rows.append((tuple(match[2].split()), 1 if match[1] == "+" else 0))
    return tuple(rows)


def load_reviews() -> tuple[tuple[tuple[tuple[str, ...], int], ...], tuple[tuple[tuple[str, ...], int], ...]]:
    """The reviews and the showcase as ``((words, label), ...)`` with label 1 positive, 0 negative.

    Raises ``ValueError`` when a line is malformed, a review appears twice (a showcase review
    among the training reviews too), or :data:`SENTIMENT_WORDS` lists a word no review uses.
    """
    reviews, showcase = _parse(REVIEWS, "REVIEWS"), _parse(SHOWCASE, "SHOWCASE")
    texts = [words for words, _ in reviews + showcase]
    if len(set(texts)) != len(texts):
        raise ValueError("a review is listed twice")
    unused = SENTIMENT_WORDS.difference(word for words in texts for word in words)
    if unused:
        raise ValueError(f"SENTIMENT_WORDS lists words no review uses: {', '.join(sorted(unused))}")
    return reviews, showcase
