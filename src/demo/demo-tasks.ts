/**
 * What the demo's scripted model knows how to do in the sample repository (`sample-repo.ts`):
 * each task is recognised by words in the request and is one edit, committed and offered as a
 * draft PR. A request that matches none is ambiguous: the model asks which one was meant.
 */

export interface DemoTask {
  /** Words that pick this task (lowercase, any one). */
  words: string[];
  /** The example request the demo prints and the panel link suggests. */
  example: string;
  ack: string;
  path: string;
  old: string;
  new: string;
  commit: string;
  title: string;
  body: string;
}

export const DEMO_TASKS: DemoTask[] = [
  {
    words: ['farewell', 'goodbye'],
    example: 'Add a farewell(name) function next to greet() in greet.js',
    ack: 'On it: I will add farewell(name) to greet.js in {repo} and open a draft PR.',
    path: 'greet.js',
    old: "export const greet = (name) => 'Hello, ' + name;\n",
    new: "export const greet = (name) => 'Hello, ' + name;\n\nexport const farewell = (name) => 'Goodbye, ' + name;\n",
    commit: 'Add farewell(name) next to greet()',
    title: 'Add farewell(name)',
    body: 'Adds `farewell(name)` beside `greet(name)`, as asked in the chat.',
  },
  {
    words: ['typo', 'spelling'],
    example: 'Fix the typo in the README',
    ack: 'On it: I will fix the typo in the README of {repo} and open a draft PR.',
    path: 'README.md',
    old: 'A tiny greting library',
    new: 'A tiny greeting library',
    commit: 'Fix a typo in the README',
    title: 'Fix a typo in the README',
    body: '"greting" → "greeting".',
  },
];

/** The third example: nothing in it says what to change, so the model asks. */
export const AMBIGUOUS_EXAMPLE = 'Make it better';

export const AMBIGUOUS = {
  ack: 'Looking at {repo} to see what could be improved.',
  summary: 'The request does not say what to improve; asked which change is meant.',
  question: 'What should I improve in {repo}: add a farewell() function, or fix the README’s typo?',
  choices: ['Add farewell()', 'Fix the README typo'],
};

/** The task a request asks for, by its words; undefined when it names none. */
export function taskFor(request: string): DemoTask | undefined {
  const lower = request.toLowerCase();
  return DEMO_TASKS.find((t) => t.words.some((w) => lower.includes(w)));
}

/** The three example requests the demo prints. */
export const EXAMPLES: string[] = [...DEMO_TASKS.map((t) => t.example), AMBIGUOUS_EXAMPLE];
