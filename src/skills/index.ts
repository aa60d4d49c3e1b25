/** Skills: SKILL.md files and command files loaded as definitions, and the Skill tool's texts. */
export { loadSkills, readSkillFile, type SkillDefinition, type SkillSources } from './load-skills.js';
export { skillInstructions, skillListing, type SkillOutput } from './skill-tool.js';
