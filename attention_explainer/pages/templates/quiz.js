// --- The question dialog, shared by the presenter and the SCORM player (quiz_dialog.html is its markup) ---
// makeQuiz(questions, hooks) asks a list of questions one by one in the dialog: a labelled field or
// labelled radio buttons, Answer, Skip; after the feedback, Continue (or Enter) goes to the next one,
// and after the last, hooks.done() lets the video go on. hooks.opened() pauses the video;
// hooks.recorded(question, answer) hears of each answer ({response, result}: "correct", "wrong" or
// "skipped"; a choice's response is its option's text).

// The same reading of a typed number as the package's check (attention_explainer/package/questions.py).
const MINUS = "\u2212";
function readTypedNumber(typed) {
  const text = String(typed).trim().split(MINUS).join("-").split(" ").join("");
  if (!text) throw new Error("no answer was typed: type a number, like 0.25");
  if (/^[+-]?(\d{1,3}(,\d{3})+|\d+)?(\.\d+)?$/.test(text) && /\d/.test(text)) return Number(text.split(",").join(""));
  if (/^[+-]?\d+,\d+$/.test(text)) {
    throw new Error(`\u201c${String(typed).trim()}\u201d is not a number as typed here: use a point for decimals ` +
      `(${text.replace(",", ".")}), and commas only between groups of three digits (12,288)`);
  }
  throw new Error(`\u201c${String(typed).trim()}\u201d is not a number: type digits, with a point for decimals, like 0.25`);
}

function makeQuiz(questions, hooks) {
  const byId = (id) => document.getElementById(id);
  const quiz = {
    questions: questions,
    answers: {},  // by question id: {response, result}
    on: false,
    asking: null,  // the question open in the dialog
    answered: false,  // its feedback is shown: Continue (or Enter) goes on
    queue: [],
  };

  function element(tag, attributes, text) {
    const made = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) made.setAttribute(name, value);
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function open(question) {
    quiz.asking = question;
    quiz.answered = false;
    const number = questions.indexOf(question) + 1;
    byId("question-title").textContent = `Question ${number} of ${questions.length}`;
    byId("question-stem").textContent = question.stem;
    const area = byId("question-answer");
    area.replaceChildren();
    if (question.kind === "numeric") {
      area.append(element("label", {for: "question-number"}, "Your answer"));
      area.append(element("input", {id: "question-number", type: "text", inputmode: "decimal", autocomplete: "off"}));
    } else {
      const group = element("fieldset");
      group.append(element("legend", {}, "Choose one answer"));
      question.options.forEach((option, k) => {
        const label = element("label");
        label.append(element("input", {type: "radio", name: "question-choice", value: String(k)}), " " + option.text);
        group.append(label);
      });
      area.append(group);
    }
    for (const id of ["question-error", "question-feedback"]) byId(id).textContent = "";
    byId("question-form").hidden = false;
    byId("question-continue").hidden = true;
    byId("question").hidden = false;
    document.body.dataset.asking = question.id;
    hooks.opened(question);
    area.querySelector("input").focus();
  }

  function record(result, response) {
    const answer = {response: response, result: result};
    quiz.answers[quiz.asking.id] = answer;
    byId("question-form").hidden = true;
    quiz.answered = true;
    hooks.recorded(quiz.asking, answer);
  }

  function mark(event) {
    event.preventDefault();
    const asking = quiz.asking;
    const error = byId("question-error");
    let right, feedback, response;
    if (asking.kind === "numeric") {
      response = byId("question-number").value;
      let typed;
      try {
        typed = readTypedNumber(response);
      } catch (problem) {
        error.textContent = problem.message;  // not marked: the learner types again
        byId("question-number").focus();
        return;
      }
      right = Math.abs(typed - asking.value) <= asking.tolerance * (1 + 1e-9);
      feedback = right ? asking.feedback : `Not quite: the answer is ${asking.answer}. ${asking.feedback}`;
    } else {
      const chosen = document.querySelector('input[name="question-choice"]:checked');
      if (!chosen) {
        error.textContent = "Choose one of the answers, or Skip.";
        return;
      }
      const option = asking.options[Number(chosen.value)];
      response = option.text;
      right = option.correct;
      feedback = option.feedback;
    }
    error.textContent = "";
    record(right ? "correct" : "wrong", response);
    byId("question-feedback").textContent = feedback;
    const next = byId("question-continue");
    next.hidden = false;
    next.focus();
  }

  function goOn() {
    byId("question").hidden = true;
    byId("question-feedback").textContent = "";
    quiz.asking = null;
    quiz.answered = false;
    delete document.body.dataset.asking;
    const next = quiz.queue.shift();
    if (next) open(next);
    else hooks.done();
  }

  function skip() {
    record("skipped", "");
    goOn();
  }

  // Ask ``list`` (the questions not answered yet, in order); hooks.done() once the last is answered or skipped.
  quiz.ask = (list) => {
    quiz.queue = list.filter((question) => !(question.id in quiz.answers));
    const first = quiz.queue.shift();
    if (first) open(first);
    else hooks.done();
  };

  quiz.setOn = (on) => {
    quiz.on = on && questions.length > 0;
    document.body.dataset.quiz = quiz.on ? "on" : "off";
    const state = byId("quiz-state");
    if (state) state.textContent = quiz.on ? "on" : "off";
  };

  // A key pressed while the dialog is open: the dialog has the keyboard (its own fields and buttons,
  // Escape to skip, Enter after the feedback to go on). Returns true when the dialog took the key.
  quiz.key = (event) => {
    if (!quiz.asking) return false;
    if (event.key === "Escape" && !quiz.answered) {
      event.preventDefault();
      skip();
    } else if (event.key === "Enter" && quiz.answered && event.target.id !== "question-continue") {
      event.preventDefault();
      goOn();
    }
    return true;
  };

  if (questions.length) {
    byId("question-form").addEventListener("submit", mark);
    byId("question-skip").addEventListener("click", skip);
    byId("question-continue").addEventListener("click", goOn);
  }
  return quiz;
}
