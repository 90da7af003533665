export const MESSAGES = {
  en: (name) => `Hello, ${name}!`,
};
