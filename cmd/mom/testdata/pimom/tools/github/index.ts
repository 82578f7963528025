export default { name: "github", description: "Query GitHub", parameters: {}, execute: async () => ({ content: [] }) };
